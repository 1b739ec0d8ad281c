import type { Knex } from '@bo/db';
import { readMarker, truncateAll, writeMarker } from './marker.ts';

/**
 * The Excel benchmark needs a goods list of exactly N rows, more goods than the main data set
 * has: N goods, each sold once on one day, then that day's goods aggregate built by the worker.
 */
export const EXCEL_DAY = '2025-01-15';
const SUPPLIERS = 200;

export interface ExcelFixture {
  rows: number;
  day: string;
  /** Rows the worker wrote into the goods aggregate for the day. */
  aggregateRows: number;
}

type Rebuild = (knex: Knex, job: { kind: 'goods'; day: string; requestedBy: 'cli' }) => Promise<{ rows: number }>;

async function insertChunked(knex: Knex, table: string, count: number, row: (i: number) => Record<string, unknown>): Promise<void> {
  const CHUNK = 2_000;
  for (let i = 0; i < count; i += CHUNK) {
    await knex(table).insert(Array.from({ length: Math.min(CHUNK, count - i) }, (_, k) => row(i + k)));
  }
}

export async function ensureExcelFixture(knex: Knex, rows: number, rebuild: Rebuild, log: (l: string) => void): Promise<ExcelFixture> {
  const spec = JSON.stringify({ kind: 'excel', rows, day: EXCEL_DAY });
  const marker = await readMarker<ExcelFixture>(knex);
  if (marker?.spec === spec) return marker.info;

  log(`  excel fixture: ${rows.toLocaleString('en-US')} goods with one sale each on ${EXCEL_DAY}`);
  await truncateAll(knex);
  await knex('site').insert({ site_no: '1', site_nm: '벤치몰' });
  await knex('std_ctg').insert({ std_ctg_no: 'XC01', std_ctg_nm: '벤치 카테고리', depth: 1, leaf_yn: 'Y' });
  await insertChunked(knex, 'entr', SUPPLIERS, (i) => ({
    entr_no: `XE${String(i + 1).padStart(5, '0')}`,
    entr_nm: `벤치 공급사 ${i + 1}`,
  }));
  await insertChunked(knex, 'goods', rows, (i) => ({
    goods_no: `XG${String(i + 1).padStart(9, '0')}`,
    goods_nm: `벤치 상품 ${i + 1} 프리미엄 에디션`,
    entr_no: `XE${String((i % SUPPLIERS) + 1).padStart(5, '0')}`,
    std_ctg_no: 'XC01',
    sale_stat_cd: '10',
    sale_prc: 10_000 + (i % 90) * 1_000,
    img_path: `/goods/${i + 1}.jpg`,
    goods_reg_dtm: '2024-12-01 10:00:00',
  }));
  await insertChunked(knex, 'ord_stat_evt', rows, (i) => ({
    ord_no: `XO${String(i + 1).padStart(9, '0')}`,
    ord_goods_seq: 1,
    site_no: '1',
    goods_no: `XG${String(i + 1).padStart(9, '0')}`,
    agrt_gb_cd: '02',
    evt_gb_cd: '10',
    evt_dtm: `${EXCEL_DAY} ${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`,
    qty: 1 + (i % 3),
    amt: (10_000 + (i % 90) * 1_000) * (1 + (i % 3)),
    dc_amt_2nd: i % 500,
    dc_amt_3rd: i % 300,
  }));
  const built = await rebuild(knex, { kind: 'goods', day: EXCEL_DAY, requestedBy: 'cli' });
  const fixture: ExcelFixture = { rows, day: EXCEL_DAY, aggregateRows: built.rows };
  await writeMarker(knex, spec, fixture);
  return fixture;
}
