#!/bin/sh
# One Sentinel of docker-compose.yml (redis-sentinel, three copies): watches the master `redis`
# under the name the services know (REDIS_SENTINEL_NAME=bo-redis); two of three must agree it is
# down before redis-replica is promoted. Sentinel rewrites its config file, so it is written here
# at each start rather than mounted read-only.
set -e
cat > /tmp/sentinel.conf <<CONF
port 26379
sentinel resolve-hostnames yes
sentinel announce-hostnames no
sentinel monitor bo-redis redis 6379 2
sentinel down-after-milliseconds bo-redis 5000
sentinel failover-timeout bo-redis 30000
sentinel parallel-syncs bo-redis 1
CONF
exec redis-server /tmp/sentinel.conf --sentinel
