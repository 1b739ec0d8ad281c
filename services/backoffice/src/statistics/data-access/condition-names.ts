import type { Knex } from '@bo/db';
import type { ConditionNames, SiteGoodsFilter } from '../model.ts';

/** The names of a request's conditions (site, category, MD, supplier, brand, goods), echoed on report rows. */

const nameOf = async (q: Knex.QueryBuilder, column: string): Promise<string | undefined> => {
  const row = await q.first<Record<string, string | null> | undefined>(column);
  return row?.[column] ?? undefined;
};

export async function conditionNames(knex: Knex, f: SiteGoodsFilter): Promise<ConditionNames> {
  const [siteNm, stdCtgNm, mdNm, entrNm, brandNm, goods] = await Promise.all([
    f.siteNo ? nameOf(knex('site').where('site_no', f.siteNo), 'site_nm') : undefined,
    f.stdCtgNo ? nameOf(knex('std_ctg').where('std_ctg_no', f.stdCtgNo), 'std_ctg_nm') : undefined,
    f.mdId ? nameOf(knex('bo_user').where('user_id', f.mdId), 'user_nm') : undefined,
    f.entrNo ? nameOf(knex('entr').where('entr_no', f.entrNo), 'entr_nm') : undefined,
    f.brandNo ? nameOf(knex('brand').where('brand_no', f.brandNo), 'brand_nm') : undefined,
    f.goodsNo
      ? (knex('goods').where('goods_no', f.goodsNo).first('goods_nm', 'img_path') as Promise<
          { goods_nm: string; img_path: string | null } | undefined
        >)
      : undefined,
  ]);
  return { siteNm, stdCtgNm, mdNm, entrNm, brandNm, goodsNm: goods?.goods_nm, imgPath: goods?.img_path ?? undefined };
}

export async function siteName(knex: Knex, siteNo: string | undefined): Promise<string | null> {
  if (!siteNo) return null;
  return (await nameOf(knex('site').where('site_no', siteNo), 'site_nm')) ?? null;
}
