-- Run once by the mysql image on an empty data volume (docker-entrypoint-initdb.d), as root,
-- after it has created MYSQL_USER (`bo_app` in docker-compose.yml).
CREATE DATABASE IF NOT EXISTS `bo` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS `member` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- The services and `pnpm db:migrate` connect as bo_app: everything on their two databases, nothing else.
GRANT ALL PRIVILEGES ON `bo`.* TO 'bo_app'@'%';
GRANT ALL PRIVILEGES ON `member`.* TO 'bo_app'@'%';
