#!/bin/sh
# Run once by the mysql image on the replica's empty data volume: follow the primary by GTID
# from its first transaction, so the databases, bo_app and every row arrive by replication (the
# replica creates no user or database of its own, which would collide with the primary's).
# A replica added to a primary that has purged old binary logs is seeded from a copy first
# (CLONE INSTANCE, or mysqldump --source-data=2 --set-gtid-purged=ON) and then started like this.
set -e
mysql -uroot -p"$MYSQL_ROOT_PASSWORD" <<SQL
CHANGE REPLICATION SOURCE TO SOURCE_HOST = 'mysql', SOURCE_PORT = 3306, SOURCE_USER = 'repl',
  SOURCE_PASSWORD = '${MYSQL_REPLICATION_PASSWORD}', SOURCE_AUTO_POSITION = 1, GET_SOURCE_PUBLIC_KEY = 1;
START REPLICA;
SQL
