#!/bin/sh
# Run once by the mysql image (docker-entrypoint-initdb.d) on an empty primary, after
# 01-databases.sql: the account the read replica (mysql-replica) replicates with, and the right of
# bo_app to read replication status (the back-office's read pool asks each replica how far behind
# it is: SHOW REPLICA STATUS).
set -e
mysql -uroot -p"$MYSQL_ROOT_PASSWORD" <<SQL
CREATE USER IF NOT EXISTS 'repl'@'%' IDENTIFIED BY '${MYSQL_REPLICATION_PASSWORD}';
GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';
GRANT REPLICATION CLIENT ON *.* TO 'bo_app'@'%';
SQL
