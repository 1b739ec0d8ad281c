import { selectRows, type Knex } from '@bo/db';
import { CODE_GROUPS } from '@bo/contracts';
import { AI_WINDOW_TABLES, aiWindowSumsCurrent } from '@bo/aggregates';
import type { AiListGoodsRow, AiScoredRow, SignalWindow, SqlCondition } from '../model.ts';

const blank = (col: string) => `(${col} IS NULL OR TRIM(${col}) = '')`;

/**
 * Each goods item with its recommendation signals and score, computed by the database:
 * listing gaps, page views against net ordered quantity in the window, stock short with
 * waiting restock requests, low-rated recent reviews. Only goods whose score reaches the
 * threshold (AI_LIST_MIN_SCORE) are recommended, ordered by score.
 *
 * Demand comes from the aggregation worker's tables, never from the raw logs: page views from
 * `agg_inflow_hourly`, net ordered quantity (`ord_qty − cncl_qty` of report `01`) from
 * `agg_goods_daily`. Each is summed per goods in its own derived table so the database may read
 * the window by its primary key (`agrt_dt` leads) for the whole list, or per goods through
 * `idx_agg_inflow_goods` / `idx_agg_goods_goods` when the conditions leave few goods (MariaDB's
 * split materialisation). The window is whole past days: the worker builds a day once it is
 * over, so today is never in it.
 *
 * With `demand` `stored` (see `demandSource`), the two sums are instead read by key from the
 * worker's `agg_ai_window_sum` of this window: the same numbers, without summing a month of rows.
 */
function scoredGoodsSql(where: SqlCondition[], w: SignalWindow, demand: DemandSource): { sql: string; bindings: (string | number)[] } {
  const gaps = {
    brand: `(g.brand_no IS NULL OR g.brand_no = '')`,
    keyword: blank('g.sch_kwd_nm'),
    seo: `(${blank('g.seo_title_nm')} OR ${blank('g.seo_desc')})`,
    model: blank('g.modl_nm'),
  };
  const stored = demand === 'stored';
  const inflow = stored ? 'COALESCE(ws.inf_cnt, 0)' : 'COALESCE(inf.cnt, 0)';
  const net = stored ? 'COALESCE(ws.net_qty, 0)' : 'COALESCE(od.net_qty, 0)';
  const demandJoins = stored
    ? `LEFT JOIN ${AI_WINDOW_TABLES.sums} ws ON ws.to_dt = ? AND ws.days = ? AND ws.goods_no = g.goods_no`
    : `LEFT JOIN (SELECT goods_no, SUM(inf_cnt) AS cnt FROM agg_inflow_hourly
               WHERE agrt_dt >= ? AND agrt_dt < ? GROUP BY goods_no) inf ON inf.goods_no = g.goods_no
    LEFT JOIN (SELECT goods_no, SUM(ord_qty - cncl_qty) AS net_qty FROM agg_goods_daily
               WHERE agrt_gb_cd = '01' AND agrt_dt >= ? AND agrt_dt < ? GROUP BY goods_no) od ON od.goods_no = g.goods_no`;
  const demandBindings = stored ? [w.toDay, w.days] : [w.fromDay, w.toDay, w.fromDay, w.toDay];
  const lowConversion = `(${inflow} >= ? AND ${net} <= ${inflow} * ?)`;
  const stockShort = `(g.sale_stat_cd IN ('00', '20') OR (g.stk_mgr_yn = 'Y' AND g.stk_qty <= g.sfty_stk_qty))`;
  const waiting = 'COALESCE(rs.waiting, 0)';
  const lowReviews = 'COALESCE(rv.low_cnt, 0)';
  const score = `(
      (CASE WHEN ${gaps.brand} THEN 15 ELSE 0 END) + (CASE WHEN ${gaps.keyword} THEN 10 ELSE 0 END)
    + (CASE WHEN ${gaps.seo} THEN 10 ELSE 0 END) + (CASE WHEN ${gaps.model} THEN 5 ELSE 0 END)
    + (CASE WHEN ${lowConversion} THEN 30 + LEAST(20, FLOOR(${inflow} / ?) * 5) ELSE 0 END)
    + (CASE WHEN ${stockShort} AND ${waiting} > 0 THEN 25 + LEAST(25, ${waiting}) ELSE 0 END)
    + (CASE WHEN ${lowReviews} > 0 THEN 20 + LEAST(20, ${lowReviews} * 5) ELSE 0 END))`;
  const scoreBindings = [w.minInflow, w.maxConversion, w.minInflow];

  // Only what the score needs: the display columns and joins are added for the page alone.
  const sql = `
    SELECT g.goods_no AS goodsNo, g.sale_stat_cd AS saleStatCd,
      CASE WHEN ${gaps.brand} THEN 1 ELSE 0 END AS gapBrand,
      CASE WHEN ${gaps.keyword} THEN 1 ELSE 0 END AS gapKeyword,
      CASE WHEN ${gaps.seo} THEN 1 ELSE 0 END AS gapSeo,
      CASE WHEN ${gaps.model} THEN 1 ELSE 0 END AS gapModel,
      ${inflow} AS inflowCnt, ${net} AS netOrdQty,
      CASE WHEN ${lowConversion} THEN 1 ELSE 0 END AS lowConversion,
      CASE WHEN ${stockShort} THEN 1 ELSE 0 END AS stockShort,
      ${waiting} AS restockWaiting, ${lowReviews} AS lowReviewCnt, rv.low_avg AS lowReviewAvg,
      ${score} AS score
    FROM goods g
    ${demandJoins}
    LEFT JOIN (SELECT goods_no, COUNT(*) AS waiting FROM restock_noti_req WHERE noti_yn = 'N' GROUP BY goods_no) rs
           ON rs.goods_no = g.goods_no
    LEFT JOIN (SELECT goods_no, COUNT(*) AS low_cnt, AVG(star_score) AS low_avg FROM goods_review
               WHERE del_yn = 'N' AND star_score <= 2 AND reg_dtm >= ? AND reg_dtm < ? GROUP BY goods_no) rv
           ON rv.goods_no = g.goods_no
    ${where.length ? `WHERE ${where.map((c) => `(${c.sql})`).join(' AND ')}` : ''}`;
  // Bindings follow the order of the placeholders above: select list, joins, then WHERE.
  const selectBindings = [w.minInflow, w.maxConversion, ...scoreBindings];
  const joinBindings = [...demandBindings, `${w.fromDay} 00:00:00`, `${w.toDay} 00:00:00`];
  return { sql, bindings: [...selectBindings, ...joinBindings, ...where.flatMap((c) => c.bindings)] };
}

/** Where the window's demand sums are read from: the worker's stored sums, or the aggregates summed now. */
export type DemandSource = 'stored' | 'live';

/**
 * `stored` when the worker's sums of this window were read from exactly the builds the window
 * has now (their stored version equals the one computed from `agg_built_day`), else `live`: a
 * day rebuilt since, a new day before the worker's first build, or a worker with another
 * AI_LIST_WINDOW_DAYS. Either way the list's numbers are the same; `stored` reads fewer rows.
 */
export async function demandSource(knex: Knex, w: Pick<SignalWindow, 'toDay' | 'days'>): Promise<DemandSource> {
  return (await aiWindowSumsCurrent(knex, { toDay: w.toDay, days: w.days })) ? 'stored' : 'live';
}

/**
 * Every goods whose score reaches the threshold, best first (score, then goods number), with
 * the signals behind each score: the whole ranking, so that every page of one request (and its
 * count) comes from one scoring. A few thousand short rows at full scale.
 *
 * With a `split` goods number the two halves of the catalogue (below it, from it on) are scored
 * by two statements at once, each on its own connection and core, and merged: each half comes
 * sorted, and at equal scores every goods of the lower half precedes the upper half's by the
 * same collation, so the merge keeps the order one statement would give.
 */
export async function scoreRecommendedGoods(
  knex: Knex,
  where: SqlCondition[],
  window: SignalWindow,
  demand: DemandSource,
  split: string | null = null,
): Promise<AiScoredRow[]> {
  const score = (conditions: SqlCondition[]) => {
    const inner = scoredGoodsSql(conditions, window, demand);
    return selectRows<AiScoredRow>(knex, `SELECT x.* FROM (${inner.sql}) x WHERE x.score >= ? ORDER BY x.score DESC, x.goodsNo`, [
      ...inner.bindings,
      window.minScore,
    ]);
  };
  if (split === null) return score(where);
  const [lower, upper] = await Promise.all([
    score([...where, { sql: 'g.goods_no < ?', bindings: [split] }]),
    score([...where, { sql: 'g.goods_no >= ?', bindings: [split] }]),
  ]);
  const merged: AiScoredRow[] = [];
  let i = 0;
  let j = 0;
  while (i < lower.length || j < upper.length) {
    const takeLower = j >= upper.length || (i < lower.length && Number(lower[i]!.score) >= Number(upper[j]!.score));
    merged.push(takeLower ? lower[i++]! : upper[j++]!);
  }
  return merged;
}

/** The display columns of the given goods (supplier, brand, MD, code names, category path), in no order. */
export async function recommendedGoodsColumns(knex: Knex, goodsNos: readonly string[]): Promise<AiListGoodsRow[]> {
  if (!goodsNos.length) return [];
  return selectRows<AiListGoodsRow>(
    knex,
    `SELECT g.goods_no AS goodsNo, g.goods_nm AS goodsNm, g.goods_comp_cd AS goodsCompCd, g.goods_typ_cd AS goodsTypCd,
      e.entr_nm AS entrNm, g.entr_no AS entrNo, b.brand_nm AS brandNm, g.sale_meth_cd AS saleMethCd,
      g.sale_stat_cd AS saleStatCd, ss.cd_nm AS saleStatCdNm, g.buy_typ_cd AS buyTypCd, g.deli_proc_typ_cd AS deliProcTypCd,
      g.deli_goods_gb_cd AS deliGoodsGbCd, g.deli_way_cd AS deliWayCd, u.user_nm AS mdNm, g.disp_yn AS dispYn,
      dp.cd_nm AS deliProcTypCdNm, dg.cd_nm AS deliGoodsGbCdNm, CAST(g.disp_dlex_amt AS CHAR) AS dispDlexAmt,
      CONCAT_WS(' > ', c3.std_ctg_nm, c2.std_ctg_nm, c1.std_ctg_nm, c0.std_ctg_nm) AS stdCtgHierarchy,
      g.buyr_age_lmt_cd AS buyrAgeLmtCd, g.buy_qty_lmt_yn AS buyQtyLmtYn, g.rglr_deli_goods_yn AS rglrDeliGoodsYn,
      g.goods_reg_dtm AS goodsRegDtm, g.sale_prc AS salePrc, g.min_lmt_qty AS minLmtQty, g.max_lmt_qty AS maxLmtQty
    FROM goods g
    LEFT JOIN entr e ON e.entr_no = g.entr_no
    LEFT JOIN brand b ON b.brand_no = g.brand_no
    LEFT JOIN bo_user u ON u.user_id = g.md_id
    LEFT JOIN cm_cd ss ON ss.grp_cd = ? AND ss.cd = g.sale_stat_cd
    LEFT JOIN cm_cd dp ON dp.grp_cd = ? AND dp.cd = g.deli_proc_typ_cd
    LEFT JOIN cm_cd dg ON dg.grp_cd = ? AND dg.cd = g.deli_goods_gb_cd
    LEFT JOIN std_ctg c0 ON c0.std_ctg_no = g.std_ctg_no
    LEFT JOIN std_ctg c1 ON c1.std_ctg_no = c0.upr_std_ctg_no
    LEFT JOIN std_ctg c2 ON c2.std_ctg_no = c1.upr_std_ctg_no
    LEFT JOIN std_ctg c3 ON c3.std_ctg_no = c2.upr_std_ctg_no
    WHERE g.goods_no IN (${goodsNos.map(() => '?').join(', ')})`,
    [CODE_GROUPS.SALE_STATUS, CODE_GROUPS.DELI_PROC_TYPE, CODE_GROUPS.DELI_GOODS_GB, ...goodsNos],
  );
}
