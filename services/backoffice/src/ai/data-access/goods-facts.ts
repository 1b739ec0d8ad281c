import type { Knex } from '@bo/db';
import { CODE_GROUPS } from '@bo/contracts';
import type { CodeRow, DocPageRow, GoodsFacts } from '../model.ts';

/** What a detail description may state: the goods' own facts, its document pages, the PR050 option. */

/** One goods item with the facts a description may state; scoped to a supplier when given. */
export async function findGoodsFacts(knex: Knex, goodsNo: string, entrNo?: string): Promise<GoodsFacts | undefined> {
  const q = knex('goods as g').leftJoin('brand as b', 'b.brand_no', 'g.brand_no').where('g.goods_no', goodsNo).first({
    goodsNo: 'g.goods_no',
    goodsNm: 'g.goods_nm',
    entrNo: 'g.entr_no',
    brandNm: 'b.brand_nm',
    stdCtgNo: 'g.std_ctg_no',
    modlNm: 'g.modl_nm',
    mfcoNm: 'g.mfco_nm',
    homeNm: 'g.home_nm',
  });
  if (entrNo) q.where('g.entr_no', entrNo);
  return (await q) as GoodsFacts | undefined;
}

export async function findDocPages(knex: Knex, goodsNo: string): Promise<DocPageRow[]> {
  return knex('goods_doc_page')
    .where('goods_no', goodsNo)
    .orderBy([{ column: 'file_nm' }, { column: 'page_no' }])
    .select({ fileNm: 'file_nm', pageNo: 'page_no', pageText: 'page_text' });
}

/** A PR050 description option in use, read fresh: options are switched on and off by operators. */
export async function findDescOption(knex: Knex, option: string): Promise<CodeRow | undefined> {
  return knex('cm_cd')
    .where({ grp_cd: CODE_GROUPS.AI_DESC_OPTION, cd: option, use_yn: 'Y' })
    .first({ grpCd: 'grp_cd', cd: 'cd', cdNm: 'cd_nm' });
}

/** The PR050 options in use with their names, for the answer that refuses another one. */
export async function descOptionsInUse(knex: Knex): Promise<CodeRow[]> {
  return knex('cm_cd')
    .where({ grp_cd: CODE_GROUPS.AI_DESC_OPTION, use_yn: 'Y' })
    .orderBy('cd')
    .select({ grpCd: 'grp_cd', cd: 'cd', cdNm: 'cd_nm' });
}
