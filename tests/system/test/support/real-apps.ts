import type { Express } from 'express';
import { createBackofficeApp, loadBackofficeConfig } from '@bo/backoffice';
import { createMemberApp, loadMemberConfig } from '@bo/member';
import type { Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import { TEST_JWT_SECRET } from '@bo/testing';

/** The real back-office app from its own config loader; HS256 with the test secret unless told otherwise. */
export function backofficeApp(knex: Knex, logger: Logger, env: NodeJS.ProcessEnv = { JWT_SECRET: TEST_JWT_SECRET }): Express {
  return createBackofficeApp({ config: loadBackofficeConfig({ NODE_ENV: 'test', ...env }), logger, knex });
}

/** The real member app from its own config loader. */
export function memberApp(knex: Knex, logger: Logger, env: NodeJS.ProcessEnv = {}): Express {
  return createMemberApp({ config: loadMemberConfig({ NODE_ENV: 'test', ...env }), logger, knex });
}
