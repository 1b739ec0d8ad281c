import { expect } from 'chai';
import type { Express } from 'express';
import type { Response } from 'supertest';
import { createTestDatabase, type TestDatabase, ADMIN, bearer, TEST_JWT_SECRET, testLogger } from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import type { ErrorCode } from '@bo/contracts';
import { createBackofficeApp, loadBackofficeConfig } from '../../../src/index.ts';

export const BO = '/api/bo';
export const ADMIN_AUTH = bearer(ADMIN);
export const supplierAuth = (entrNo: string) => bearer({ sub: `entr.${entrNo}`, workGrpCd: 'BO_ENTR', entrNo });

/** N of the TOP-N list in these tests, smaller than the number of categories so the cut shows. */
export const TEST_TOP_N = 4;

export const statisticsDatabase = (label: string): Promise<TestDatabase> => createTestDatabase(label, boMigrations);

export function statisticsApp(db: TestDatabase, clock?: () => Date): Express {
  const config = loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, STATISTICS_TOP_N: String(TEST_TOP_N) });
  return createBackofficeApp({ config, logger: testLogger(), knex: db.knex, ...(clock ? { clock } : {}) });
}

/** Collect a binary body (supertest buffers only text and JSON by itself). */
export const binary = (res: unknown, done: (err: Error | null, body: Buffer) => void): void => {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

/** The declared validation failure (900) naming `field`. */
export function expectFieldRefused(res: Response, field: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(900);
  const body = res.body as ErrorCode;
  expect(body.code).to.equal('1000');
  expect(
    body.errors?.map((e) => e.field),
    JSON.stringify(body),
  ).to.include(field);
}

/** The supplier-scope refusal: a real 403 with the ErrorCode body. */
export function expectSupplierRefused(res: Pick<Response, 'status' | 'body'>): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(403);
  expect(res.body).to.include({ code: '1202', httpStatus: 403 });
}
