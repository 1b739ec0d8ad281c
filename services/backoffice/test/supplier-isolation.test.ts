import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { operationsOf, type OperationSpec } from '@bo/contracts';
import { bearer, type TestDatabase } from '@bo/testing';
import { question, restockRequest, review } from './dashboard/fixtures.ts';
import { arrange, buildDailyAggregates, insertArranged, type Arranged } from './statistics/helpers/arranged-data.ts';
import { days } from './statistics/helpers/expected.ts';
import { readWorkbook } from './statistics/helpers/read-workbook.ts';
import {
  ADMIN_AUTH,
  binary,
  expectSupplierRefused,
  statisticsApp,
  statisticsDatabase,
  supplierAuth,
} from './statistics/helpers/statistics-app.ts';

/**
 * A supplier token sees only its own supplier on every statistics, dashboard and AI operation.
 * Each supplier's answer is compared with what an admin token is answered: the admin's rows
 * filtered to that supplier's goods (rows that name their goods or supplier), or the admin's
 * answer for that supplier plus a partition check — the four suppliers' figures add up to the
 * admin's platform-wide figures (totals that name no goods). Reports whose aggregates carry no
 * supplier answer supplier tokens 403 by design.
 */

/** 2026-02-10 12:00 in Seoul: the dashboard's 7 days and the AI list's 30 days end here. */
const NOW = new Date('2026-02-10T03:00:00Z');
const SUPPLIERS = ['E001', 'E002', 'E003', 'E004'];

const RANGE = { startDate: '2026-01-28', endDate: '2026-02-05' };
const PERIOD = { calendarType: 'date', ...RANGE };
const HOURLY = { targetDate: '2026-02-01' };

type Body = unknown;
type Row = Record<string, unknown>;
interface Answer {
  status: number;
  /** JSON, or an Excel sheet as an array of rows (header row first). */
  body: Body;
}

/** Every number in an answer by its path: the figures that add up over suppliers. */
function figures(value: unknown, skip: readonly string[] = [], path = ''): Record<string, number> {
  if (typeof value === 'number') return { [path]: value };
  if (value === null || typeof value !== 'object') return {};
  return Object.entries(value).reduce<Record<string, number>>(
    (out, [k, v]) => (skip.includes(k) ? out : { ...out, ...figures(v, skip, `${path}/${k}`) }),
    {},
  );
}

type Check =
  /** Refused to every supplier token: the report's aggregates carry no supplier. */
  | { kind: 'refused' }
  /**
   * Figures that name no goods: the supplier's answer is the admin's answer for that supplier,
   * the suppliers' figures add up to the admin's, and any goods listed are the supplier's own.
   */
  | { kind: 'partition'; figures: (body: Body) => Record<string, number>; goodsIn?: (body: Body) => string[] }
  /** Rows that name their supplier: the supplier's rows are the admin's rows of that supplier. */
  | { kind: 'rows'; rows: (body: Body) => Row[]; entrOf: (row: Row, body: Body) => unknown; rebuild: (body: Body, rows: Row[]) => Body }
  /** AI operations about one goods number. */
  | { kind: 'goods' };

interface Case {
  sample: Record<string, string>;
  check: Check;
}

const list = (body: Body) => (body as { payloads: Row[] }).payloads;
const listRows: Omit<Extract<Check, { kind: 'rows' }>, 'kind'> = {
  rows: list,
  entrOf: (row) => row.entrNo,
  rebuild: (_body, rows) => ({ totalCount: rows.length, payloads: rows }),
};
/** An Excel sheet: header row kept, the supplier read from the 공급사번호 column. */
const sheetRows: Omit<Extract<Check, { kind: 'rows' }>, 'kind'> = {
  rows: (body) => (body as Row[][]).slice(1) as unknown as Row[],
  entrOf: (row, body) => (row as unknown as unknown[])[((body as unknown[][])[0] ?? []).indexOf('공급사번호')],
  rebuild: (body, rows) => [(body as unknown[][])[0], ...rows],
};
/** The AI list: the list inside the result envelope. */
const envelopeRows: Omit<Extract<Check, { kind: 'rows' }>, 'kind'> = {
  rows: (body) => (body as { payload: { payloads: Row[] } }).payload.payloads,
  entrOf: (row) => row.entrNo,
  rebuild: (body, rows) => ({ ...(body as object), payload: { totalCount: rows.length, payloads: rows } }),
};
const allFigures = (body: Body) => figures(body, ['totalCount']);

const CASES: Record<string, Case> = {
  // AI goods
  getAiGoodsDescV2: { sample: {}, check: { kind: 'goods' } },
  getAiGoodsDescV1: { sample: {}, check: { kind: 'goods' } },
  getAiGoodsAutoFill: { sample: {}, check: { kind: 'goods' } },
  getAiGoodsListV2: { sample: { pageSize: '1000' }, check: { kind: 'rows', ...envelopeRows } },
  getAiGoodsListV1: { sample: { pageSize: '1000' }, check: { kind: 'rows', ...envelopeRows } },
  // statistics graphs, lists and downloads over raw events (totals that name no goods)
  getPeriodBasedStatusGraphData: { sample: { ...PERIOD, agrtGb: '01' }, check: { kind: 'partition', figures: allFigures } },
  getPeriodSalesStatusGraphData: { sample: { ...PERIOD, agrtGb: '02' }, check: { kind: 'partition', figures: allFigures } },
  getHourBasedStatusGraphData: { sample: { ...HOURLY, agrtGb: '01' }, check: { kind: 'partition', figures: allFigures } },
  getHourlySalesStatusGraphData: { sample: { ...HOURLY, agrtGb: '02' }, check: { kind: 'partition', figures: allFigures } },
  getPeriodBasedStatusList: { sample: { ...PERIOD, agrtGb: '01' }, check: { kind: 'partition', figures: allFigures } },
  downloadPeriodBasedStatusExcel: { sample: { ...PERIOD, agrtGb: '02' }, check: { kind: 'partition', figures: allFigures } },
  getHourBasedStatusList: { sample: { ...HOURLY, agrtGb: '02' }, check: { kind: 'partition', figures: allFigures } },
  downloadHourBasedStatusExcel: {
    sample: { ...HOURLY, agrtGb: '01', fileName: 'hourly' },
    check: { kind: 'partition', figures: allFigures },
  },
  // statistics lists over the daily aggregates
  getGoodsStatusList: { sample: { ...RANGE, agrtGb: '01' }, check: { kind: 'rows', ...listRows } },
  downloadGoodsStatusExcel: { sample: { ...RANGE, agrtGb: '02', fileName: 'goods' }, check: { kind: 'rows', ...sheetRows } },
  getEnterpriseStatusList: { sample: { ...RANGE, agrtGb: '02' }, check: { kind: 'rows', ...listRows } },
  downloadEnterpriseStatusExcel: { sample: { ...RANGE, agrtGb: '01', fileName: 'suppliers' }, check: { kind: 'rows', ...sheetRows } },
  getCategorySalesStatusTop: { sample: { ...RANGE, agrtGb: '01' }, check: { kind: 'refused' } },
  getCategoryStatusList: { sample: { ...RANGE, agrtGb: '01' }, check: { kind: 'refused' } },
  categoryStatusExcelDownload: { sample: { ...RANGE, agrtGb: '01' }, check: { kind: 'refused' } },
  getPayWayStatusList: { sample: { ...RANGE, agrtGb: '01' }, check: { kind: 'refused' } },
  payWayStatusExcelDownload: { sample: { ...RANGE, agrtGb: '01' }, check: { kind: 'refused' } },
  // dashboard
  getGoodsSaleStockStatus: { sample: {}, check: { kind: 'partition', figures: (b) => figures(b, ['mdMatchedStdCtgCount']) } },
  getRestockNoticeStatus: {
    sample: {},
    check: {
      kind: 'partition',
      figures: (b) => ({ totCnt: (b as { totCnt: number }).totCnt }),
      goodsIn: (b) => (b as { list: Row[] }).list.map((x) => String(x.goodsNo)),
    },
  },
  getQnaAnswerStatus: {
    sample: {},
    check: {
      kind: 'partition',
      figures: (b) => ({ totalCnt: (b as { totalCnt: number }).totalCnt }),
      goodsIn: (b) => (b as { list: Row[] }).list.map((x) => String(x.goodsNo)),
    },
  },
  getGoodsReviewStatus: { sample: {}, check: { kind: 'partition', figures: (b) => figures(b) } },
};

/** An answer without what differs between two identical calls (the envelope timestamp). */
const stable = (body: Body): Body => {
  if (body && typeof body === 'object' && 'timestamp' in body) {
    const { timestamp: _timestamp, ...rest } = body as Record<string, unknown>;
    return rest;
  }
  return body;
};

/** Goods rows, dashboard rows and document pages on top of the statistics data set. */
async function arrangeEverything(db: TestDatabase): Promise<Arranged> {
  const a = arrange({
    seed: 5101,
    orderDays: days('2026-01-24', '2026-02-08'),
    orders: 220,
    inflowDays: ['2026-02-01', '2026-02-02'],
    inflows: 160,
  });
  await insertArranged(db.knex, a);
  await buildDailyAggregates(db.knex, '2026-01-24', '2026-02-09');
  for (const [i, g] of a.goods.entries()) {
    // Every sale status and stock situation the dashboard counts, spread over the suppliers.
    const sale =
      i % 5 === 0
        ? { sale_stat_cd: '20', stk_qty: 0 }
        : i % 7 === 0
          ? { stk_qty: 2, sfty_stk_qty: 5 }
          : { stk_qty: 50 + i, sfty_stk_qty: 5 };
    await db
      .knex('goods')
      .where({ goods_no: g.goods_no })
      .update({ stk_mgr_yn: 'Y', sfty_stk_qty: 5, ...sale });
  }
  await db
    .knex('restock_noti_req')
    .insert(
      a.goods.flatMap((g, i) =>
        Array.from({ length: (i % 4) + 1 }, (_, k) => restockRequest(g.goods_no, { mbr_no: `M${k}`, noti_yn: k === 3 ? 'Y' : 'N' })),
      ),
    );
  await db.knex('goods_qna').insert(
    a.goods.map((g, i) =>
      question(g.goods_no, {
        entr_no: g.entr_no,
        proc_stat_cd: i % 3 === 0 ? '20' : '10',
        quest_dtm: `2026-02-0${(i % 9) + 1} 10:00:00`,
      }),
    ),
  );
  await db
    .knex('goods_review')
    .insert(
      a.goods.map((g, i) =>
        review(g.goods_no, { star_score: (i % 5) + 1, reg_dtm: '2026-02-08 10:00:00', del_yn: i % 6 === 0 ? 'Y' : 'N' }),
      ),
    );
  await db.knex('cm_cd').insert({ grp_cd: 'PR050', cd: '10', cd_nm: '상세설명' });
  await db.knex('goods_doc_page').insert(
    a.goods.map((g) => ({
      goods_no: g.goods_no,
      file_nm: `${g.goods_no}.pdf`,
      page_no: 1,
      page_text: `${g.goods_nm}은 가볍고 튼튼한 소재로 만들었습니다.\n세탁기 사용이 가능합니다.`,
    })),
  );
  return a;
}

describe('supplier isolation: a supplier token sees only its own supplier on every operation', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;
  const goodsOf = (entrNo: string) => new Set(a.goods.filter((g) => g.entr_no === entrNo).map((g) => g.goods_no));

  async function answer(op: OperationSpec, sample: Record<string, string>, auth: string): Promise<Answer> {
    const url = `/api/bo${op.path}`;
    const req = op.method === 'post' ? request(app).post(url).send(sample) : request(app).get(url).query(sample);
    const res = await (op.response === 'excel' ? req.buffer(true).parse(binary) : req).set('Authorization', auth);
    if (op.response !== 'excel' || res.status !== 200) {
      const raw = res.body as unknown;
      return { status: res.status, body: Buffer.isBuffer(raw) ? JSON.parse(raw.toString('utf8')) : raw };
    }
    return { status: 200, body: (await readWorkbook(res.body as Buffer)).sheets[0]!.aoa };
  }

  before(async () => {
    db = await statisticsDatabase('bo_supplier_isolation');
    a = await arrangeEverything(db);
    app = statisticsApp(db, () => NOW);
    for (const e of SUPPLIERS) expect(goodsOf(e).size, `goods of ${e}`).to.be.greaterThan(2);
  });
  after(() => db?.drop());

  it('when the spec lists the back-office operations, then every one is checked here', () => {
    expect(
      operationsOf('backoffice')
        .map((o) => o.operationId)
        .sort(),
    ).to.deep.equal(Object.keys(CASES).sort());
  });

  // Issue 17.3: such a token used to pass without a supplier scope and see every supplier.
  it('when a signed token of an unknown or differently-cased work group without entrNo calls any operation, then 403 with the ErrorCode body', async () => {
    for (const workGrpCd of ['bo_entr', 'BO_GUEST']) {
      const auth = bearer({ sub: 'stranger01', workGrpCd });
      for (const op of operationsOf('backoffice')) {
        const res = await answer(op, CASES[op.operationId]!.sample, auth);
        expect(res.status, `${workGrpCd} ${op.operationId}`).to.equal(403);
        expect(res.body).to.deep.include({ code: '1201', httpStatus: 403 });
      }
    }
  });

  for (const op of operationsOf('backoffice')) {
    const c = CASES[op.operationId];
    if (!c) continue;
    const { check, sample } = c;
    const title = `${op.method.toUpperCase()} ${op.path}`;

    if (check.kind === 'refused') {
      it(`when a supplier token calls ${title}, then 403 (platform-wide report) while an admin gets 200`, async () => {
        expect((await answer(op, sample, ADMIN_AUTH)).status).to.equal(200);
        for (const e of SUPPLIERS) expectSupplierRefused(await answer(op, sample, supplierAuth(e)));
      });
    }

    if (check.kind === 'rows') {
      it(`when a supplier token calls ${title}, then it gets exactly the admin's rows of its own supplier`, async () => {
        const admin = await answer(op, sample, ADMIN_AUTH);
        expect(admin.status, JSON.stringify(admin.body)).to.equal(200);
        const all = check.rows(admin.body);
        const owners = new Set(all.map((r) => check.entrOf(r, admin.body)));
        expect([...owners].sort(), 'the admin sees rows of every supplier').to.deep.equal(SUPPLIERS);
        const seen: Row[] = [];
        for (const e of SUPPLIERS) {
          const own = await answer(op, sample, supplierAuth(e));
          expect(own.status, JSON.stringify(own.body)).to.equal(200);
          const expected = check.rebuild(
            admin.body,
            all.filter((r) => check.entrOf(r, admin.body) === e),
          );
          expect(stable(own.body), e).to.deep.equal(stable(expected));
          for (const r of check.rows(own.body)) {
            const goodsNo = (r as { goodsNo?: unknown }).goodsNo;
            if (typeof goodsNo === 'string') expect(goodsOf(e).has(goodsNo), `${goodsNo} belongs to ${e}`).to.equal(true);
          }
          seen.push(...check.rows(own.body));
        }
        expect(seen, 'the suppliers together see every admin row').to.have.length(all.length);
      });
    }

    if (check.kind === 'partition') {
      it(`when a supplier token calls ${title}, then it gets the admin's answer for its supplier, and the suppliers' figures add up to the admin's`, async () => {
        const admin = await answer(op, sample, ADMIN_AUTH);
        expect(admin.status, JSON.stringify(admin.body)).to.equal(200);
        const total = check.figures(admin.body);
        expect(
          Object.values(total).some((v) => v !== 0),
          'the admin figures are not all zero',
        ).to.equal(true);
        const sum: Record<string, number> = {};
        for (const e of SUPPLIERS) {
          const own = await answer(op, sample, supplierAuth(e));
          expect(own.status, JSON.stringify(own.body)).to.equal(200);
          const adminForE = await answer(op, { ...sample, entrNo: e }, ADMIN_AUTH);
          expect(stable(own.body), e).to.deep.equal(stable(adminForE.body));
          const mine = check.figures(own.body);
          expect(mine, `${e}'s figures are its share, not the platform's`).to.not.deep.equal(total);
          for (const [k, v] of Object.entries(mine)) sum[k] = (sum[k] ?? 0) + v;
          for (const goodsNo of check.goodsIn?.(own.body) ?? [])
            expect(goodsOf(e).has(goodsNo), `${goodsNo} belongs to ${e}`).to.equal(true);
        }
        expect(sum).to.deep.equal(total);
      });
    }

    if (check.kind === 'goods') {
      const autoFill = op.operationId === 'getAiGoodsAutoFill';
      const then = autoFill
        ? "then the admin's answer (it reads only the shared masters)"
        : "then the admin's answer; about another supplier's goods, then no goods";
      it(`when a supplier token calls ${title} about its own goods, ${then}`, async () => {
        const send = (goodsNo: string, auth: string) =>
          answer(op, autoFill ? { productName: a.goods.find((g) => g.goods_no === goodsNo)!.goods_nm } : { goodsNo, option: '10' }, auth);
        for (const e of SUPPLIERS) {
          const [mine, theirs] = [[...goodsOf(e)][0]!, a.goods.find((g) => g.entr_no !== e)!.goods_no];
          const admin = await send(mine, ADMIN_AUTH);
          expect(admin.status, JSON.stringify(admin.body)).to.equal(200);
          const own = await send(mine, supplierAuth(e));
          expect(stable(own.body), e).to.deep.equal(stable(admin.body));
          if (autoFill) continue;
          expect((await send(theirs, ADMIN_AUTH)).status).to.equal(200);
          const other = await send(theirs, supplierAuth(e));
          expect(other.status, JSON.stringify(other.body)).to.equal(900);
          expect(other.body).to.include({ code: '2001', httpStatus: 404 });
        }
      });
    }
  }
});
