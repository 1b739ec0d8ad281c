import { createLogger, installGracefulShutdown, runMain, serverTimeoutsFor, startHttpServer } from '@bo/service-kit';
import { createMemberApp } from './app.ts';
import { MEMBER_PREFIX } from './deps.ts';
import { loadMemberConfig } from './config.ts';
import { createMemberKnex } from './database.ts';
import { startKeySweeper } from './staff-limit/key-sweeper.ts';

await runMain(async () => {
  const config = loadMemberConfig();
  const logger = createLogger('member', config.LOG_LEVEL);
  const knex = createMemberKnex(config);
  const app = createMemberApp({ config, logger, knex });
  const keySweeper = startKeySweeper({ knex, logger, timeZone: config.PLATFORM_TIME_ZONE });
  const server = await startHttpServer(
    app,
    config.MEMBER_PORT,
    [() => keySweeper.stop(), () => knex.destroy()],
    undefined,
    serverTimeoutsFor(config.REQUEST_TIMEOUT_MS),
  );
  installGracefulShutdown(logger, server.close, config.SHUTDOWN_TIMEOUT_MS);
  logger.info('member service listening', { port: server.port, docs: `http://localhost:${server.port}${MEMBER_PREFIX}/swagger-ui` });
});
