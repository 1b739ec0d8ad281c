import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { createRandom } from '@bo/data-generator';
import { type TestDatabase } from '@bo/testing';
import { readWorkbook } from './helpers/read-workbook.ts';
import { ADMIN_AUTH, BO, binary, statisticsApp, statisticsDatabase } from './helpers/statistics-app.ts';

const GOODS_EXCEL = `${BO}/v1/statistics/goodsStatus/downloadGoodsStatusExcel`;
const QUERY = { startDate: '2026-02-01', endDate: '2026-02-02', agrtGb: '01', fileName: '상품별 현황' };
const GOODS_COUNT = 50_000;

interface AggRow {
  agrt_gb_cd: string;
  agrt_dt: string;
  site_no: string;
  goods_no: string;
  entr_no: string;
  ord_amt: number;
  ord_qty: number;
  cncl_amt: number;
  cncl_qty: number;
  dc_amt_2nd: number;
  dc_amt_3rd: number;
}
interface GoodsMaster {
  goods_no: string;
  goods_nm: string;
  entr_no: string;
  std_ctg_no: string;
  img_path: string | null;
  sale_stat_cd: string;
  goods_reg_dtm: string;
}

/**
 * 50,000 goods with one aggregate row each on 2026-02-01, every tenth with a second row on
 * 2026-02-02 (so the download sums), and a row outside the range and one of the other agrtGb
 * that must not count. Only every fifth goods (and those with markup characters in their names)
 * has a master row, which keeps the arrangement quick and leaves the others' names empty cells;
 * some goods have no image.
 */
function arrangeGoods() {
  const r = createRandom(9901);
  const entrs = Array.from({ length: 20 }, (_, i) => ({ entr_no: `E${String(i + 1).padStart(3, '0')}`, entr_nm: `공급사 ${i + 1}` }));
  const goods: GoodsMaster[] = [];
  const agg: AggRow[] = [];
  const measures = () => {
    const ordQty = r.int(1, 50);
    const cnclQty = r.int(0, ordQty);
    const unit = r.int(1, 400) * 100;
    return {
      ord_amt: ordQty * unit,
      ord_qty: ordQty,
      cncl_amt: cnclQty * unit,
      cncl_qty: cnclQty,
      dc_amt_2nd: r.int(0, 9) * 100,
      dc_amt_3rd: r.int(0, 3) * 50,
    };
  };
  for (let i = 1; i <= GOODS_COUNT; i++) {
    const goodsNo = `G${String(i).padStart(8, '0')}`;
    const entr = entrs[i % entrs.length]!;
    if (i % 5 === 0 || i % 997 === 0)
      goods.push({
        goods_no: goodsNo,
        goods_nm: i % 997 === 0 ? `특가 <${i}> & "묶음"` : `상품 ${i}`,
        entr_no: entr.entr_no,
        std_ctg_no: 'C1000',
        img_path: i % 7 === 0 ? null : `/goods/${i}.jpg`,
        sale_stat_cd: '10',
        goods_reg_dtm: '2025-10-01 00:00:00',
      });
    const base = { agrt_gb_cd: '01', site_no: 'S01', goods_no: goodsNo, entr_no: entr.entr_no };
    agg.push({ ...base, agrt_dt: '2026-02-01', ...measures() });
    if (i % 10 === 0) agg.push({ ...base, agrt_dt: '2026-02-02', ...measures() });
    if (i % 1000 === 0) {
      agg.push({ ...base, agrt_dt: '2026-02-03', ...measures() });
      agg.push({ ...base, agrt_gb_cd: '02', agrt_dt: '2026-02-01', ...measures() });
    }
  }
  return { entrs, goods, agg };
}

/** The goods grid in grid order, recomputed from the arranged rows: sums in range, net amount descending, then goods number. */
function expectedGrid(a: ReturnType<typeof arrangeGoods>): unknown[][] {
  const sums = new Map<
    string,
    { entrNo: string; ordAmt: number; ordQty: number; cnclAmt: number; cnclQty: number; dc2: number; dc3: number }
  >();
  for (const x of a.agg) {
    if (x.agrt_gb_cd !== QUERY.agrtGb || x.agrt_dt < QUERY.startDate || x.agrt_dt > QUERY.endDate) continue;
    const s = sums.get(x.goods_no) ?? { entrNo: x.entr_no, ordAmt: 0, ordQty: 0, cnclAmt: 0, cnclQty: 0, dc2: 0, dc3: 0 };
    s.ordAmt += x.ord_amt;
    s.ordQty += x.ord_qty;
    s.cnclAmt += x.cncl_amt;
    s.cnclQty += x.cncl_qty;
    s.dc2 += x.dc_amt_2nd;
    s.dc3 += x.dc_amt_3rd;
    sums.set(x.goods_no, s);
  }
  const goods = new Map(a.goods.map((g) => [g.goods_no, g]));
  const entrNm = new Map(a.entrs.map((e) => [e.entr_no, e.entr_nm]));
  return [...sums.entries()]
    .sort(([ga, x], [gb, y]) => y.ordAmt - y.cnclAmt - (x.ordAmt - x.cnclAmt) || (ga < gb ? -1 : 1))
    .map(([goodsNo, s]) => {
      const g = goods.get(goodsNo);
      return [
        g?.img_path ?? null,
        goodsNo,
        g?.goods_nm ?? null,
        s.entrNo,
        entrNm.get(s.entrNo)!,
        null,
        s.dc2,
        s.dc3,
        s.ordAmt,
        s.cnclAmt,
        s.ordAmt - s.cnclAmt,
        s.ordQty,
        s.cnclQty,
        s.ordQty - s.cnclQty,
      ];
    });
}

const usedConnections = (db: TestDatabase) => (db.knex.client as { pool: { numUsed(): number } }).pool.numUsed();

describe('statistics: large Excel download (streamed from the database)', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let server: Server;
  let base: string;
  let expected: unknown[][];

  before(async () => {
    db = await statisticsDatabase('stats_excel_big');
    const a = arrangeGoods();
    await db.knex.batchInsert('site', [{ site_no: 'S01', site_nm: '메인몰' }], 100);
    await db.knex.batchInsert('entr', a.entrs, 100);
    await db.knex.batchInsert('goods', a.goods, 5000);
    await db.knex.batchInsert('agg_goods_daily', a.agg, 5000);
    expected = expectedGrid(a);
    server = statisticsApp(db).listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.close();
    await db?.drop();
  });

  it('when 50,000 goods are downloaded, then the workbook holds every one of them row for row in grid order', async () => {
    const res = await request(server).get(GOODS_EXCEL).query(QUERY).set('Authorization', ADMIN_AUTH).buffer(true).parse(binary);
    expect(res.status).to.equal(200);
    const { sheets } = await readWorkbook(res.body as Buffer);
    expect(sheets.map((s) => s.name)).to.deep.equal(['상품별 주문현황']);
    const { aoa } = sheets[0]!;
    expect(aoa[0]).to.deep.equal([
      '이미지경로',
      '상품번호',
      '상품명',
      '공급사번호',
      '공급사명',
      '사이트명',
      '2차 할인금액',
      '3차 할인금액',
      '주문금액',
      '취소금액',
      '순주문금액',
      '주문수량',
      '취소수량',
      '순주문수량',
    ]);
    const rows = aoa.slice(1);
    expect(rows).to.have.length(GOODS_COUNT);
    const firstDifference = rows.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(expected[i]));
    expect(
      firstDifference,
      `row ${firstDifference}: ${JSON.stringify(rows[firstDifference])} ≠ ${JSON.stringify(expected[firstDifference])}`,
    ).to.equal(-1);
  });

  it('when a big download is in flight, then cheap requests sent meanwhile keep completing, none waiting more than a small part of the download', async () => {
    let downloading = true;
    const started = performance.now();
    let firstByte = Number.NaN;
    const download = new Promise<number>((resolve, reject) => {
      http
        .get(`${base}${GOODS_EXCEL}?${new URLSearchParams(QUERY).toString()}`, { headers: { Authorization: ADMIN_AUTH } }, (res) => {
          res.once('data', () => (firstByte = performance.now()));
          res.resume();
          res.on('end', () => {
            downloading = false;
            resolve(performance.now());
          });
        })
        .on('error', reject);
    });
    const cheap: { sent: number; done: number }[] = [];
    while (downloading) {
      const sent = performance.now();
      const res = await request(server).get(`${BO}/health`);
      expect(res.status).to.equal(200);
      cheap.push({ sent, done: performance.now() });
    }
    const finished = await download;
    const duringStream = cheap.filter((c) => c.sent > firstByte && c.done < finished);
    const slowest = Math.max(...cheap.map((c) => c.done - c.sent));
    expect(duringStream.length, 'cheap requests answered between the first and the last byte of the download').to.be.greaterThan(2);
    expect(slowest * 4, `slowest cheap request ${slowest.toFixed(0)} ms, download ${(finished - started).toFixed(0)} ms`).to.be.lessThan(
      finished - started,
    );
  });

  it('when the client goes away mid-download, then the query stream is closed and its connection goes back to the pool', async () => {
    const inUseWhileStreaming = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        `${base}${GOODS_EXCEL}?${new URLSearchParams(QUERY).toString()}`,
        { headers: { Authorization: ADMIN_AUTH } },
        (res) => {
          res.once('data', () => {
            const used = usedConnections(db);
            req.destroy();
            resolve(used);
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? undefined : reject(err)));
    });
    expect(inUseWhileStreaming).to.equal(1);
    for (let i = 0; i < 200 && usedConnections(db) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(usedConnections(db)).to.equal(0);
    const after = await request(server)
      .get(GOODS_EXCEL)
      .query({ ...QUERY, goodsNo: 'G00000001' })
      .set('Authorization', ADMIN_AUTH)
      .buffer(true)
      .parse(binary);
    expect(after.status).to.equal(200);
    expect((await readWorkbook(after.body as Buffer)).sheets[0]!.aoa).to.have.length(2);
  });
});
