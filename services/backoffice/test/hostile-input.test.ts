import { expect } from 'chai';
import fc from 'fast-check';
import { DAILY_KINDS, operationsOf } from '@bo/contracts';
import { addDays } from '@bo/db';
import { seedDatabases } from '@bo/data-generator';
import {
  createTestDatabase,
  tableChecksums,
  type TestDatabase,
  ADMIN,
  answerOutcome,
  answerProblems,
  bearer,
  hostileAuthorization,
  hostileRequest,
  hostileRunSettings,
  prototypeChanges,
  prototypeSnapshot,
  sendRaw,
  TEST_JWT_SECRET,
  testLogger,
  type SampleRequest,
} from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '@bo/aggregation-worker';
import { startHttpServer, type RunningServer } from '@bo/service-kit';
import { BO_PREFIX, createBackofficeApp, loadBackofficeConfig } from '../src/index.ts';

const { numRuns, seed } = hostileRunSettings(60);

/**
 * Every back-office operation of the contracts catalogue, fed hostile queries, bodies and
 * tokens (mostly its valid sample request with one to four things wrong) against a small
 * generated data set with its aggregates: never a 5xx, never a stack trace or driver message,
 * failures in the ErrorCode shape, no table changed, no built-in prototype touched.
 */
describe('hostile input: back-office operations', function () {
  this.timeout(300_000);
  let db: TestDatabase;
  let server: RunningServer;
  let samples: Record<string, SampleRequest>;
  let authorization: fc.Arbitrary<string | undefined>;
  let checksums: Record<string, string>;
  let prototypes: ReturnType<typeof prototypeSnapshot>;
  let sent = 0;
  const statuses = new Map<string, number>();

  before(async () => {
    db = await createTestDatabase('hostile_bo', boMigrations);
    const seeded = await seedDatabases({ boUrl: db.url, seed: 7, days: 10, goods: 40, events: 3000, loadMethod: 'insert' });
    const plan = seeded.plan!;
    for (let day = plan.start; day <= plan.end; day = addDays(day, 1))
      for (const kind of [...DAILY_KINDS, 'inflow' as const]) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });

    const goods = await db.knex('goods').whereNotNull('brand_no').whereNotNull('md_id').orderBy('goods_no').first<Record<string, string>>();
    const site = await db.knex('site').orderBy('site_no').first<{ site_no: string }>('site_no');
    const option = await db.knex('cm_cd').where({ grp_cd: 'PR050', use_yn: 'Y' }).orderBy('sort_seq').first<{ cd: string }>('cd');
    const md = await db.knex('md_std_ctg').orderBy('user_id').first<{ user_id: string }>('user_id');
    const promotion = await db.knex('mkdp').orderBy('mkdp_no').first<{ mkdp_nm: string } | undefined>('mkdp_nm');
    samples = sampleRequests({
      ...goods,
      site_no: site.site_no,
      option: option.cd,
      md_user: md.user_id,
      mkdp_nm: promotion?.mkdp_nm ?? 'x',
      start: plan.start,
      end: plan.end,
    });

    authorization = fc.oneof(
      { weight: 6, arbitrary: fc.constant(bearer(ADMIN)) },
      { weight: 1, arbitrary: fc.constant(bearer({ sub: md.user_id, workGrpCd: 'BO_MD' })) },
      { weight: 1, arbitrary: fc.constant(bearer({ sub: `entr.${goods.entr_no}`, workGrpCd: 'BO_ENTR', entrNo: goods.entr_no! })) },
      { weight: 1, arbitrary: hostileAuthorization(TEST_JWT_SECRET) },
    );
    const config = loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET });
    server = await startHttpServer(createBackofficeApp({ config, logger: testLogger(), knex: db.knex }), 0, [], '127.0.0.1');
    checksums = await tableChecksums(db.knex);
    prototypes = prototypeSnapshot();
    console.log(`      (hostile input: fast-check seed ${seed}, ${numRuns} runs per operation; FC_SEED / FC_RUNS change them)`);
  });

  after(async () => {
    console.log(
      `      (hostile input: ${sent} hostile requests to ${operationsOf('backoffice').length} back-office operations; status/code × count: ${tally(statuses)})`,
    );
    await server?.close();
    await db?.drop();
  });

  it('when each valid sample request is sent, then it succeeds (the mutations start from valid requests)', async () => {
    for (const op of operationsOf('backoffice')) {
      const sample = samples[op.operationId];
      expect(sample, `a sample request for ${op.operationId}`).to.not.equal(undefined);
      const query = new URLSearchParams(
        Object.entries(sample!.query ?? {}).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x])),
      ).toString();
      const answer = await sendRaw(server.url, `${BO_PREFIX}${op.path}`, {
        method: op.method,
        query,
        headers: { authorization: bearer(ADMIN), ...(sample!.body ? { 'content-type': 'application/json' } : {}) },
        ...(sample!.body ? { body: JSON.stringify(sample!.body) } : {}),
      });
      expect(answer.status, `${op.operationId}: ${answer.text.slice(0, 300)}`).to.equal(200);
    }
  });

  for (const op of operationsOf('backoffice')) {
    it(`when ${op.method.toUpperCase()} ${op.path} gets hostile queries, bodies and tokens, then no 5xx, no stack, ErrorCode failures, no table or prototype changed`, async () => {
      await fc.assert(
        fc.asyncProperty(hostileRequest(op, samples[op.operationId]!, { authorization }), async (req) => {
          sent++;
          const answer = await sendRaw(server.url, `${BO_PREFIX}${op.path}`, req);
          const outcome = answerOutcome(answer);
          statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
          const problems = [...answerProblems(op, answer), ...prototypeChanges(prototypes)];
          if (problems.length) throw new Error(problems.join('\n'));
        }),
        { numRuns, seed },
      );
      expect(await tableChecksums(db.knex), 'table checksums').to.deep.equal(checksums);
    });
  }
});

interface Known {
  goods_no?: string;
  goods_nm?: string;
  entr_no?: string;
  brand_no?: string;
  std_ctg_no?: string;
  md_id?: string;
  site_no: string;
  option: string;
  md_user: string;
  mkdp_nm: string;
  start: string;
  end: string;
}

/** A valid request of every operation, naming rows of the generated data so the requests reach the SQL. */
function sampleRequests(k: Known): Record<string, SampleRequest> {
  const range = { startDate: k.start, endDate: k.end, agrtGb: '01' };
  const period = { calendarType: 'date', ...range, stdCtgNo: k.std_ctg_no!, siteNo: k.site_no };
  const hourly = { targetDate: k.end, agrtGb: '02', goodsNo: k.goods_no!, entrNo: k.entr_no! };
  const aiList = {
    goodsRegStartDtm: `${addDays(k.start, -3650)} 00:00:00`,
    goodsRegEndDtm: `${k.end} 23:59:59`,
    entrNo: k.entr_no!,
    brandNo: k.brand_no!,
    saleStatCdList: ['10', '20'],
    searchCodeOption: 'in',
    searchCodeText: k.goods_no!.slice(0, 3),
    mkdpNm: k.mkdp_nm,
    goodsNm: k.goods_nm!.slice(0, 2),
    page: '1',
    pageSize: '20',
  };
  const desc = { goodsNo: k.goods_no!, option: k.option, additionalInfo: '방수 기능' };
  const xlsx = { fileName: 'report' };
  const dashboard = { userId: k.md_user, siteNo: k.site_no };
  const byId: Record<string, SampleRequest> = {
    getAiGoodsDescV2: { body: desc },
    getAiGoodsAutoFill: { body: { productName: k.goods_nm! } },
    getAiGoodsListV2: { query: aiList },
    getAiGoodsListV1: { query: aiList },
    getAiGoodsDescV1: { query: desc },
    getPeriodBasedStatusGraphData: { body: period },
    getHourBasedStatusGraphData: { body: hourly },
    getPeriodSalesStatusGraphData: {
      query: { ...period, calendarType: 'month', startMonth: k.start.slice(0, 7), endMonth: k.end.slice(0, 7) },
    },
    getHourlySalesStatusGraphData: { query: hourly },
    getCategorySalesStatusTop: { query: { ...range, stdCtgNo: k.std_ctg_no!.slice(0, 2) } },
    getPeriodBasedStatusList: { query: period },
    downloadPeriodBasedStatusExcel: { query: { ...period, ...xlsx } },
    getPayWayStatusList: { query: { ...range, siteNo: k.site_no } },
    payWayStatusExcelDownload: { query: { ...range, ...xlsx } },
    getHourBasedStatusList: { query: hourly },
    downloadHourBasedStatusExcel: { query: { ...hourly, ...xlsx } },
    getGoodsStatusList: { query: { ...range, goodsNo: k.goods_no!, entrNo: k.entr_no! } },
    downloadGoodsStatusExcel: { query: { ...range, ...xlsx } },
    getEnterpriseStatusList: { query: { ...range, entrNo: k.entr_no! } },
    downloadEnterpriseStatusExcel: { query: { ...range, ...xlsx } },
    getCategoryStatusList: { query: { ...range, mdId: k.md_id! } },
    categoryStatusExcelDownload: { query: { ...range, stdCtgNo: k.std_ctg_no!, ...xlsx } },
    getGoodsSaleStockStatus: { query: { userId: k.md_user } },
    getRestockNoticeStatus: { query: dashboard },
    getQnaAnswerStatus: { query: { userId: k.md_user, procStatCd: '10' } },
    getGoodsReviewStatus: { query: dashboard },
  };
  return byId;
}

const tally = (statuses: Map<string, number>): string =>
  [...statuses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, n]) => `${outcome} ×${n}`)
    .join(', ');
