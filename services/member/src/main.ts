import { createKnex } from '@bo/db';
import { createLogger, installGracefulShutdown, runMain, startHttpServer } from '@bo/service-kit';
import { createMemberApp, MEMBER_PREFIX } from './app.ts';
import { loadMemberConfig } from './config.ts';

await runMain(async () => {
  const config = loadMemberConfig();
  const logger = createLogger('member', config.LOG_LEVEL);
  const knex = createKnex(config.MEMBER_DATABASE_URL, { poolMax: config.DB_POOL_MAX });
  const app = createMemberApp({ config, logger, knex });
  const server = await startHttpServer(app, config.MEMBER_PORT, [() => knex.destroy()]);
  installGracefulShutdown(logger, server.close, config.SHUTDOWN_TIMEOUT_MS);
  logger.info('member service listening', { port: server.port, docs: `http://localhost:${server.port}${MEMBER_PREFIX}/swagger-ui` });
});
