import type { AiGoodsListRequest } from '@bo/contracts';
import { fieldError } from '@bo/service-kit';
import { formatInZone } from '@bo/db';
import type { SqlCondition } from '../model.ts';

/** Most goods numbers one `mt` search may carry. */
export const MAX_MULTI_CODES = 1000;

// `!` as the LIKE escape character works the same whatever the server's backslash mode.
const escapeLike = (text: string): string => text.replace(/[!%_]/g, (c) => `!${c}`);
const contains = (col: string, text: string): SqlCondition => ({ sql: `${col} LIKE ? ESCAPE '!'`, bindings: [`%${escapeLike(text)}%`] });
const equals = (col: string, value: string): SqlCondition => ({ sql: `${col} = ?`, bindings: [value] });
const splitCodes = (text: string): string[] =>
  text
    .split(/[,\n\r]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** goodsDtmOption values that name the goods registration date, the only date a goods has. */
export const GOODS_DTM_OPTIONS = ['REG', 'REG_DTM', 'GOODSREGDTM'];

const ZONED = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Date-time text as stored (platform time, `yyyy-MM-dd HH:mm:ss`): a time with `Z` or an offset
 * is that instant in the platform zone (`2026-05-01T00:00:00Z` is 09:00 in Seoul); a time
 * without one is already platform time.
 */
function localDateTime(text: string, timeZone: string): string {
  if (ZONED.test(text)) return formatInZone(new Date(text), timeZone);
  return text.replace('T', ' ').replace(/\.\d+$/, '');
}
const isDateOnly = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text);

/**
 * The goods-number search of `searchCodeOption`: `st` starts with, `in` contains, `eq` equals,
 * `mt` any of several (list or comma/newline-separated text), `rg` from–to (text order, bounds
 * included). Without an option a single number is `eq` and several are `mt`.
 */
function goodsNumberCondition(r: AiGoodsListRequest): SqlCondition | undefined {
  const single = r.searchCode ?? r.searchCodeText;
  const multi = [...(r.searchCodeTextList ?? []), ...(r.searchCodeText ? splitCodes(r.searchCodeText) : [])];
  const option = r.searchCodeOption ?? (r.searchCodeFrom || r.searchCodeTo ? 'rg' : multi.length > 1 ? 'mt' : single ? 'eq' : undefined);
  switch (option) {
    case undefined:
      return undefined;
    case 'st':
    case 'in':
    case 'eq': {
      if (!single) throw fieldError('searchCode', `is required when searchCodeOption is ${option}`);
      const text = single.trim();
      if (option === 'eq') return equals('g.goods_no', text);
      return { sql: `g.goods_no LIKE ? ESCAPE '!'`, bindings: [option === 'st' ? `${escapeLike(text)}%` : `%${escapeLike(text)}%`] };
    }
    case 'mt': {
      const codes = [...new Set(multi.length ? multi : single ? splitCodes(single) : [])];
      if (codes.length === 0) throw fieldError('searchCodeTextList', 'is required when searchCodeOption is mt');
      if (codes.length > MAX_MULTI_CODES) throw fieldError('searchCodeTextList', `must hold at most ${MAX_MULTI_CODES} goods numbers`);
      return { sql: `g.goods_no IN (${codes.map(() => '?').join(', ')})`, bindings: codes };
    }
    case 'rg': {
      const from = r.searchCodeFrom?.trim();
      const to = r.searchCodeTo?.trim();
      if (!from && !to) throw fieldError('searchCodeFrom', 'searchCodeFrom or searchCodeTo is required when searchCodeOption is rg');
      if (from && to && from > to) throw fieldError('searchCodeTo', 'must not be before searchCodeFrom');
      if (from && to) return { sql: 'g.goods_no BETWEEN ? AND ?', bindings: [from, to] };
      return from ? { sql: 'g.goods_no >= ?', bindings: [from] } : { sql: 'g.goods_no <= ?', bindings: [to!] };
    }
  }
}

/** The registration period: start inclusive; an end given as a day includes that whole day. */
function periodCondition(r: AiGoodsListRequest, timeZone: string): SqlCondition[] {
  const out: SqlCondition[] = [];
  const start = r.goodsRegStartDtm ? localDateTime(r.goodsRegStartDtm, timeZone) : undefined;
  const end = r.goodsRegEndDtm ? localDateTime(r.goodsRegEndDtm, timeZone) : undefined;
  if (start && end && start.slice(0, isDateOnly(end) ? 10 : undefined) > end) {
    throw fieldError('goodsRegEndDtm', 'must not be before goodsRegStartDtm');
  }
  if (start) out.push({ sql: 'g.goods_reg_dtm >= ?', bindings: [isDateOnly(start) ? `${start} 00:00:00` : start] });
  if (end) {
    out.push(
      isDateOnly(end)
        ? { sql: 'g.goods_reg_dtm < DATE_ADD(?, INTERVAL 1 DAY)', bindings: [`${end} 00:00:00`] }
        : { sql: 'g.goods_reg_dtm <= ?', bindings: [end] },
    );
  }
  return out;
}

/**
 * Every filter of AiGoodsListRequest as SQL conditions over `goods g`. A goods number given in
 * any form (goodsNo or the searchCode fields) makes the registration period ignored (spec 4.1),
 * as does goodsDtmIgnoreOption. The period applies to the registration date, the only goods
 * date: goodsDtmOption may name it (GOODS_DTM_OPTIONS) and anything else is refused.
 */
export function listConditions(r: AiGoodsListRequest, scope: { entrNo?: string }, timeZone: string): SqlCondition[] {
  const option = r.goodsDtmOption?.trim();
  if (option && !GOODS_DTM_OPTIONS.includes(option.toUpperCase())) {
    throw fieldError(
      'goodsDtmOption',
      `must name the registration date (${GOODS_DTM_OPTIONS.join(', ')}): goods have no other date to filter by`,
    );
  }
  const out: SqlCondition[] = [];
  const entrNo = scope.entrNo ?? r.entrNo;
  if (entrNo) out.push(equals('g.entr_no', entrNo));
  const simple: [keyof AiGoodsListRequest, string][] = [
    ['mdId', 'g.md_id'],
    ['brandNo', 'g.brand_no'],
    ['saleStatCd', 'g.sale_stat_cd'],
    ['goodsCompCd', 'g.goods_comp_cd'],
    ['goodsTypCd', 'g.goods_typ_cd'],
    ['saleMethCd', 'g.sale_meth_cd'],
    ['buyTypCd', 'g.buy_typ_cd'],
    ['deliProcTypCd', 'g.deli_proc_typ_cd'],
    ['rglrDeliGoodsYn', 'g.rglr_deli_goods_yn'],
    ['frgnDirPurGoodsYn', 'g.frgn_dir_pur_goods_yn'],
    ['goodsNo', 'g.goods_no'],
  ];
  for (const [field, col] of simple) {
    const value = r[field];
    if (typeof value === 'string' && value.trim()) out.push(equals(col, value.trim()));
  }
  if (r.saleStatCdList?.length) {
    out.push({ sql: `g.sale_stat_cd IN (${r.saleStatCdList.map(() => '?').join(', ')})`, bindings: r.saleStatCdList });
  }
  if (r.goodsNm?.trim()) out.push(contains('g.goods_nm', r.goodsNm.trim()));
  if (r.stdCtgNo) {
    // The category and every category below it (the tree has at most four levels).
    out.push({
      sql: `g.std_ctg_no IN (SELECT c.std_ctg_no FROM std_ctg c
              LEFT JOIN std_ctg p1 ON p1.std_ctg_no = c.upr_std_ctg_no
              LEFT JOIN std_ctg p2 ON p2.std_ctg_no = p1.upr_std_ctg_no
              LEFT JOIN std_ctg p3 ON p3.std_ctg_no = p2.upr_std_ctg_no
            WHERE ? IN (c.std_ctg_no, p1.std_ctg_no, p2.std_ctg_no, p3.std_ctg_no))`,
      bindings: [r.stdCtgNo],
    });
  }
  if (r.dispCtgNo) {
    out.push({
      sql: 'EXISTS (SELECT 1 FROM disp_ctg_goods d WHERE d.goods_no = g.goods_no AND d.disp_ctg_no = ?)',
      bindings: [r.dispCtgNo],
    });
  }
  const promo: SqlCondition[] = [];
  if (r.mkdpNm) promo.push(contains('m.mkdp_nm', r.mkdpNm));
  if (r.brefDesc) promo.push(contains('m.bref_desc', r.brefDesc));
  if (r.introConts) promo.push(contains('m.intro_conts', r.introConts));
  if (r.divobjNm) promo.push(contains('dg.divobj_nm', r.divobjNm));
  if (promo.length) {
    out.push({
      sql: `EXISTS (SELECT 1 FROM mkdp_divobj_goods dg JOIN mkdp m ON m.mkdp_no = dg.mkdp_no
              WHERE dg.goods_no = g.goods_no AND ${promo.map((c) => c.sql).join(' AND ')})`,
      bindings: promo.flatMap((c) => c.bindings),
    });
  }
  const byNumber = goodsNumberCondition(r);
  if (byNumber) out.push(byNumber);
  const goodsNumberGiven = !!r.goodsNo?.trim() || !!byNumber;
  if (!r.goodsDtmIgnoreOption && !goodsNumberGiven) out.push(...periodCondition(r, timeZone));
  return out;
}
