import { createKnex } from '@bo/db';
import { createLogger, installGracefulShutdown, runMain, startHttpServer } from '@bo/service-kit';
import { BO_PREFIX, createBackofficeApp } from './app.ts';
import { loadBackofficeConfig } from './config.ts';

await runMain(async () => {
  const config = loadBackofficeConfig();
  const logger = createLogger('backoffice', config.LOG_LEVEL);
  const knex = createKnex(config.BO_DATABASE_URL, { poolMax: config.DB_POOL_MAX });
  const app = createBackofficeApp({ config, logger, knex });
  const server = await startHttpServer(app, config.BO_PORT, [() => knex.destroy()]);
  installGracefulShutdown(logger, server.close, config.SHUTDOWN_TIMEOUT_MS);
  logger.info('back-office service listening', { port: server.port, docs: `http://localhost:${server.port}${BO_PREFIX}/swagger-ui` });
});
