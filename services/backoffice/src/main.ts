import { createKnex, createReadPool } from '@bo/db';
import {
  createLogger,
  createRedis,
  sentinelsOf,
  installGracefulShutdown,
  runMain,
  serverTimeoutsFor,
  startHttpServer,
  type Closer,
} from '@bo/service-kit';
import { createBackofficeApp } from './app.ts';
import { BO_PREFIX } from './deps.ts';
import { loadBackofficeConfig, readReplicaOptions } from './config.ts';

await runMain(async () => {
  const config = loadBackofficeConfig();
  const logger = createLogger('backoffice', config.LOG_LEVEL);
  const poolOptions = {
    poolMax: config.DB_POOL_MAX,
    acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    streamStatementTimeoutMs: config.DB_STREAM_STATEMENT_TIMEOUT_MS,
  };
  // The back-office only reads: with replicas configured, every read goes through the replica pool.
  const readPool = config.BO_DATABASE_READ_URL ? createReadPool(readReplicaOptions(config), poolOptions) : undefined;
  const knex = readPool?.knex ?? createKnex(config.BO_DATABASE_URL, poolOptions);
  // Fail-fast: a down Redis lets AI requests through unlimited, and lists computed, rather than holding them.
  const needsRedis = config.AI_RATE_LIMIT_PER_MINUTE > 0 || config.STATISTICS_ANSWER_CACHE_SECONDS > 0;
  const redis = needsRedis ? createRedis(config.REDIS_URL, logger, { failFast: true, ...sentinelsOf(config) }) : undefined;
  const app = createBackofficeApp({ config, logger, knex, ...(redis ? { redis } : {}) });
  // quit() refuses while Redis is unreachable (no offline queue): then just drop the connection.
  const closers: Closer[] = [
    () => (readPool ? readPool.destroy() : knex.destroy()),
    ...(redis ? [() => redis.quit().catch(() => redis.disconnect())] : []),
  ];
  const server = await startHttpServer(app, config.BO_PORT, closers, undefined, serverTimeoutsFor(config.REQUEST_TIMEOUT_MS));
  installGracefulShutdown(logger, server.close, config.SHUTDOWN_TIMEOUT_MS);
  logger.info('back-office service listening', { port: server.port, docs: `http://localhost:${server.port}${BO_PREFIX}/swagger-ui` });
});
