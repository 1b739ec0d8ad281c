import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createTestDatabase, type TestDatabase, captureLogs } from '@bo/testing';
import { backofficeApp, memberApp } from './support/real-apps.ts';

/** Section 4 of the spec, typed out by hand: the documents must list exactly these. */
const SPEC_BACKOFFICE = [
  // 4.1 AI goods
  'POST /v2/goods/ai/getAiGoodsDesc',
  'POST /v2/goods/ai/getAiGoodsAutoFill',
  'GET /v2/goods/ai/getAiGoodsList',
  'GET /v1/goods/ai/getAiGoodsList',
  'GET /v1/goods/ai/getAiGoodsDesc',
  // 4.2 graph data
  'POST /v1/statistics/periodBasedStatus/getPeriodBasedStatusGraphData',
  'POST /v1/statistics/hourBasedStatus/getHourBasedStatusGraphData',
  'GET /v2/statistics/period/sales-status/graph-data',
  'GET /v2/statistics/period/hourly/sales-status/graph-data',
  // 4.3 lists and downloads
  'GET /v2/statistics/category/sales-status',
  'GET /v1/statistics/periodBasedStatus/getPeriodBasedStatusList',
  'GET /v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel',
  'GET /v1/statistics/payWayStatus/getPayWayStatusList',
  'GET /v1/statistics/payWayStatus/payWayStatusExcelDownload',
  'GET /v1/statistics/hourBasedStatus/getHourBasedStatusList',
  'GET /v1/statistics/hourBasedStatus/downloadHourBasedStatusExcel',
  'GET /v1/statistics/goodsStatus/getGoodsStatusList',
  'GET /v1/statistics/goodsStatus/downloadGoodsStatusExcel',
  'GET /v1/statistics/enterpriseStatus/getEnterpriseStatusList',
  'GET /v1/statistics/enterpriseStatus/downloadEnterpriseStatusExcel',
  'GET /v1/statistics/categoryStatus/getCategoryStatusList',
  'GET /v1/statistics/categoryStatus/categoryStatusExcelDownload',
  // 4.4 dashboard
  'GET /v2/dashboard/goods/sale-stock-status',
  'GET /v2/dashboard/goods/restock-notice-status',
  'GET /v2/dashboard/goods/qna-answer-status',
  'GET /v2/dashboard/goods/goods-review-status',
];
const SPEC_DEPRECATED = ['GET /v1/goods/ai/getAiGoodsList', 'GET /v1/goods/ai/getAiGoodsDesc'];
const SPEC_MEMBER = ['POST /v1/staff/dcLimIncDec', 'GET /v1/staff/getDsctLmtStatBO'];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
type Json = Record<string, unknown>;
type OperationObject = Json & { security?: Json[]; deprecated?: boolean };

function operationsOf(doc: Json): Map<string, OperationObject> {
  const out = new Map<string, OperationObject>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>))
    for (const [method, op] of Object.entries(item))
      if (HTTP_METHODS.includes(method)) out.set(`${method.toUpperCase()} ${path}`, op as OperationObject);
  return out;
}

/** Every local `$ref` in the document, with whether its JSON pointer leads anywhere. */
function refsOf(doc: Json): { ref: string; resolves: boolean }[] {
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') refs.push(v);
        else walk(v);
      }
  };
  walk(doc);
  const resolve = (ref: string): boolean => {
    if (!ref.startsWith('#/')) return false;
    let node: unknown = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!node || typeof node !== 'object' || !(key in node)) return false;
      node = (node as Json)[key];
    }
    return node !== undefined;
  };
  return refs.map((ref) => ({ ref, resolves: resolve(ref) }));
}

/**
 * Validation against the official OpenAPI 3.1 schema. That schema only knows response codes
 * 100-599; the spec declares its failures as status 900, so the copy validated here files each
 * 900 response under `default`: the response object itself is still checked.
 */
async function validateOpenApi31(doc: Json): Promise<{ valid: boolean; errors?: unknown }> {
  const copy = structuredClone(doc);
  for (const op of operationsOf(copy).values()) {
    const responses = op.responses as Json;
    expect(responses['900'], `${String(op.operationId)} declares its 900 failure`).to.not.equal(undefined);
    expect(responses.default).to.equal(undefined);
    responses.default = responses['900'];
    delete responses['900'];
  }
  const result = await new Validator().validate(copy);
  return result;
}

describe('OpenAPI documents and Swagger UI', () => {
  let boDb: TestDatabase;
  let bo: Express;
  let member: Express;
  let boDoc: Json;
  let memberDoc: Json;

  before(async () => {
    boDb = await createTestDatabase('kit_docs', []);
    bo = backofficeApp(boDb.knex, captureLogs().logger);
    member = memberApp(boDb.knex, captureLogs().logger);
    boDoc = (await request(bo).get('/api/bo/v3/api-docs').expect(200)).body as Json;
    memberDoc = (await request(member).get('/api/member/v3/api-docs').expect(200)).body as Json;
  });
  after(async () => {
    await boDb?.drop();
  });

  describe('back-office (/api/bo/v3/api-docs)', () => {
    it('when the document is read without a token, then it lists exactly the 26 back-office operations of the spec', () => {
      expect(SPEC_BACKOFFICE).to.have.length(26);
      expect([...operationsOf(boDoc).keys()].sort()).to.deep.equal([...SPEC_BACKOFFICE].sort());
    });

    it('when any operation is read, then it requires the bearer scheme accessToken', () => {
      const scheme = (boDoc.components as { securitySchemes?: Json }).securitySchemes?.accessToken;
      expect(scheme).to.deep.include({ type: 'http', scheme: 'bearer' });
      for (const [key, op] of operationsOf(boDoc)) expect(op.security, key).to.deep.equal([{ accessToken: [] }]);
    });

    it('when deprecation is read, then exactly the two v1 AI operations are deprecated', () => {
      const deprecated = [...operationsOf(boDoc)].filter(([, op]) => op.deprecated === true).map(([key]) => key);
      expect(deprecated.sort()).to.deep.equal([...SPEC_DEPRECATED].sort());
    });

    it('when the document is checked against the OpenAPI 3.1 schema (900 aside), then it is valid and every $ref resolves', async () => {
      expect(boDoc.openapi).to.match(/^3\.1\./);
      const result = await validateOpenApi31(boDoc);
      expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
      expect(result.valid).to.equal(true);
      const refs = refsOf(boDoc);
      expect(refs.length).to.be.greaterThan(0);
      expect(refs.filter((r) => !r.resolves).map((r) => r.ref)).to.deep.equal([]);
    });

    it('when /swagger-ui is opened, then it serves the Swagger UI page and its assets', async () => {
      const page = await request(bo).get('/api/bo/swagger-ui/');
      expect(page.status).to.equal(200);
      expect(page.headers['content-type']).to.match(/^text\/html/);
      expect(page.text).to.contain('swagger-ui');
      const init = await request(bo).get('/api/bo/swagger-ui/swagger-ui-init.js');
      expect(init.status).to.equal(200);
      expect(init.text).to.contain('getAiGoodsAutoFill');
      const bundle = await request(bo).get('/api/bo/swagger-ui/swagger-ui-bundle.js');
      expect(bundle.status).to.equal(200);
    });
  });

  describe('member (/api/member/v3/api-docs)', () => {
    it('when the document is read, then it lists exactly the 2 member operations, none of them behind the bearer scheme', () => {
      const ops = operationsOf(memberDoc);
      expect([...ops.keys()].sort()).to.deep.equal([...SPEC_MEMBER].sort());
      for (const [key, op] of ops) expect(op.security, key).to.equal(undefined);
    });

    it('when the document is checked against the OpenAPI 3.1 schema (900 aside), then it is valid and every $ref resolves', async () => {
      const result = await validateOpenApi31(memberDoc);
      expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
      expect(result.valid).to.equal(true);
      expect(
        refsOf(memberDoc)
          .filter((r) => !r.resolves)
          .map((r) => r.ref),
      ).to.deep.equal([]);
    });

    it('when /swagger-ui is opened, then it serves the Swagger UI page', async () => {
      const page = await request(member).get('/api/member/swagger-ui/');
      expect(page.status).to.equal(200);
      expect(page.headers['content-type']).to.match(/^text\/html/);
    });
  });
});
