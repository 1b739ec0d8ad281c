import { expect } from 'chai';
import { boSourceMigrations, memberBaseMigrations, migrateLatest, migrateRollback, type Knex, type Migration } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '@bo/testing';

/**
 * Tables and columns as docs/data-model.md §2 and §5 name them (written out here, not read
 * from the migrations, so a renamed or missing column fails).
 */
const BO_SOURCE: Record<string, string> = {
  site: 'site_no site_nm',
  entr: 'entr_no entr_nm',
  brand: 'brand_no brand_nm brand_eng_nm use_yn',
  brand_alias: 'brand_no alias_nm',
  std_ctg:
    'std_ctg_no upr_std_ctg_no std_ctg_nm depth leaf_yn md_id goods_noti_lisart_cd safe_certi_need_yn safe_certi_tgt_yn sz_gde_use_yn sz_gde_reg_meth_cd sz_gde_cd',
  std_ctg_att: 'std_ctg_no att_cd att_nm att_val_typ_cd disp_seq',
  goods_noti_item: 'goods_noti_lisart_cd goods_noti_item_cd noti_item_nm disp_seq',
  cm_cd: 'grp_cd cd cd_nm sort_seq use_yn',
  bo_user: 'user_id user_nm work_grp_cd entr_no',
  md_std_ctg: 'user_id std_ctg_no',
  goods:
    'goods_no goods_nm entr_no brand_no std_ctg_no md_id sale_stat_cd goods_comp_cd goods_typ_cd sale_meth_cd buy_typ_cd deli_proc_typ_cd ' +
    'deli_goods_gb_cd deli_way_cd disp_yn sale_prc disp_dlex_amt buyr_age_lmt_cd buy_qty_lmt_yn min_lmt_qty max_lmt_qty rglr_deli_goods_yn ' +
    'frgn_dir_pur_goods_yn sch_kwd_nm seo_title_nm seo_desc seo_kwd_nm modl_nm mfco_nm home_nm salemn_nm incom_nm stk_mgr_yn stk_qty ' +
    'sfty_stk_qty img_path goods_reg_dtm',
  disp_ctg_goods: 'disp_ctg_no goods_no',
  mkdp: 'mkdp_no mkdp_nm bref_desc intro_conts',
  mkdp_divobj_goods: 'mkdp_no divobj_nm goods_no',
  ord: 'ord_no site_no mbr_no ord_dtm pay_way_cd',
  ord_stat_evt: 'evt_no ord_no ord_goods_seq site_no goods_no agrt_gb_cd evt_gb_cd evt_dtm qty amt dc_amt_2nd dc_amt_3rd',
  goods_inflow_log: 'log_no goods_no site_no inflow_dtm',
  goods_review: 'rev_no goods_no site_no mbr_no star_score rev_cont reg_dtm del_yn rev_disp_stat_cd',
  restock_noti_req: 'req_no goods_no site_no mbr_no req_dtm noti_yn',
  goods_qna: 'quest_no site_no mbr_no goods_no entr_no quest_typ_cd quest_title quest_cont quest_dtm proc_stat_cd proc_stat_dtm',
  goods_doc_page: 'goods_no file_nm page_no page_text',
};
const MEMBER_BASE: Record<string, string> = {
  mbr: 'mbr_no mbr_nm mbr_stat_cd staff_yn',
  staff_dc_lim: 'mbr_no lim_amt rmnd_amt upd_dtm',
};

async function columnsByTable(knex: Knex): Promise<Map<string, Set<string>>> {
  const [rows] = (await knex.raw(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME NOT LIKE 'knex_%'`,
  )) as [{ t: string; c: string }[]];
  const out = new Map<string, Set<string>>();
  for (const r of rows) out.set(r.t, (out.get(r.t) ?? new Set()).add(r.c));
  return out;
}

async function indexedColumns(knex: Knex, table: string): Promise<string[]> {
  const [rows] = (await knex.raw(
    `SELECT INDEX_NAME AS i, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS cols FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? GROUP BY INDEX_NAME`,
    [table],
  )) as [{ i: string; cols: string }[]];
  return rows.map((r) => r.cols);
}

function expectTables(actual: Map<string, Set<string>>, expected: Record<string, string>): void {
  for (const [table, columns] of Object.entries(expected)) {
    expect(actual.has(table), `table ${table}`).to.equal(true);
    for (const c of columns.split(' ')) expect(actual.get(table)!.has(c), `${table}.${c}`).to.equal(true);
  }
}

function roundTrip(label: string, migrations: readonly Migration[], expected: Record<string, string>) {
  describe(`${label} migrations`, () => {
    let db: TestDatabase;
    before(async () => {
      db = await createTestDatabase(`mig_${label}`, []);
    });
    after(async () => db?.drop());

    it('when applied to an empty database, then every table and column of docs/data-model.md exists', async () => {
      await migrateLatest(db.knex, migrations);
      expectTables(await columnsByTable(db.knex), expected);
    });

    it('when rolled back, then no table is left; when applied again, then all are back', async () => {
      await migrateRollback(db.knex, migrations, true);
      expect([...(await columnsByTable(db.knex)).keys()]).to.deep.equal([]);
      await migrateLatest(db.knex, migrations);
      expectTables(await columnsByTable(db.knex), expected);
    });
  });
}

roundTrip('bo', boSourceMigrations, BO_SOURCE);
roundTrip('member', memberBaseMigrations, MEMBER_BASE);

describe('bo source indexes', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('mig_idx', boSourceMigrations);
  });
  after(async () => db?.drop());

  it('when migrated, then the time-range reads of statistics, worker and dashboard have an index led by their columns', async () => {
    const leads = async (table: string, prefix: string) =>
      expect(
        (await indexedColumns(db.knex, table)).some((cols) => cols.startsWith(prefix)),
        `${table} (${prefix}…)`,
      ).to.equal(true);
    await leads('ord_stat_evt', 'evt_dtm');
    await leads('ord_stat_evt', 'agrt_gb_cd,evt_dtm');
    await leads('ord_stat_evt', 'goods_no');
    await leads('goods_inflow_log', 'inflow_dtm');
    await leads('goods_review', 'reg_dtm');
    await leads('restock_noti_req', 'noti_yn');
    await leads('goods_qna', 'entr_no,proc_stat_cd');
    await leads('goods', 'entr_no');
    await leads('goods', 'std_ctg_no');
    await leads('std_ctg', 'upr_std_ctg_no');
    await leads('brand_alias', 'alias_nm');
  });
});
