import type { Migration } from '../../migrate.ts';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

/** Master tables of docs/data-model.md §2 (platform-owned; names and columns fixed). */
const TABLES: Record<string, string> = {
  site: `site_no VARCHAR(10) NOT NULL PRIMARY KEY, site_nm VARCHAR(100) NOT NULL`,
  entr: `entr_no VARCHAR(20) NOT NULL PRIMARY KEY, entr_nm VARCHAR(200) NOT NULL`,
  brand: `brand_no VARCHAR(20) NOT NULL PRIMARY KEY, brand_nm VARCHAR(200) NOT NULL, brand_eng_nm VARCHAR(200) NULL,
    use_yn CHAR(1) NOT NULL DEFAULT 'Y'`,
  brand_alias: `brand_no VARCHAR(20) NOT NULL, alias_nm VARCHAR(200) NOT NULL,
    PRIMARY KEY (brand_no, alias_nm), KEY idx_brand_alias_nm (alias_nm)`,
  std_ctg: `std_ctg_no VARCHAR(20) NOT NULL PRIMARY KEY, upr_std_ctg_no VARCHAR(20) NULL, std_ctg_nm VARCHAR(200) NOT NULL,
    depth TINYINT NOT NULL, leaf_yn CHAR(1) NOT NULL, md_id VARCHAR(50) NULL, goods_noti_lisart_cd VARCHAR(10) NULL,
    safe_certi_need_yn CHAR(1) NOT NULL DEFAULT 'N', safe_certi_tgt_yn CHAR(1) NOT NULL DEFAULT 'N',
    sz_gde_use_yn CHAR(1) NOT NULL DEFAULT 'N', sz_gde_reg_meth_cd VARCHAR(10) NULL, sz_gde_cd VARCHAR(20) NULL,
    KEY idx_std_ctg_upr (upr_std_ctg_no), KEY idx_std_ctg_md (md_id)`,
  std_ctg_att: `std_ctg_no VARCHAR(20) NOT NULL, att_cd VARCHAR(20) NOT NULL, att_nm VARCHAR(100) NOT NULL,
    att_val_typ_cd VARCHAR(10) NOT NULL, disp_seq INT NOT NULL DEFAULT 0, PRIMARY KEY (std_ctg_no, att_cd)`,
  goods_noti_item: `goods_noti_lisart_cd VARCHAR(10) NOT NULL, goods_noti_item_cd VARCHAR(10) NOT NULL,
    noti_item_nm VARCHAR(200) NOT NULL, disp_seq INT NOT NULL DEFAULT 0, PRIMARY KEY (goods_noti_lisart_cd, goods_noti_item_cd)`,
  cm_cd: `grp_cd VARCHAR(10) NOT NULL, cd VARCHAR(10) NOT NULL, cd_nm VARCHAR(100) NOT NULL, sort_seq INT NOT NULL DEFAULT 0,
    use_yn CHAR(1) NOT NULL DEFAULT 'Y', PRIMARY KEY (grp_cd, cd)`,
  bo_user: `user_id VARCHAR(50) NOT NULL PRIMARY KEY, user_nm VARCHAR(100) NOT NULL, work_grp_cd VARCHAR(20) NOT NULL,
    entr_no VARCHAR(20) NULL, KEY idx_bo_user_entr (entr_no)`,
  md_std_ctg: `user_id VARCHAR(50) NOT NULL, std_ctg_no VARCHAR(20) NOT NULL, PRIMARY KEY (user_id, std_ctg_no)`,
  goods: `goods_no VARCHAR(20) NOT NULL PRIMARY KEY, goods_nm VARCHAR(300) NOT NULL, entr_no VARCHAR(20) NOT NULL,
    brand_no VARCHAR(20) NULL, std_ctg_no VARCHAR(20) NOT NULL, md_id VARCHAR(50) NULL, sale_stat_cd VARCHAR(2) NOT NULL,
    goods_comp_cd VARCHAR(10) NULL, goods_typ_cd VARCHAR(10) NULL, sale_meth_cd VARCHAR(10) NULL, buy_typ_cd VARCHAR(10) NULL,
    deli_proc_typ_cd VARCHAR(10) NULL, deli_goods_gb_cd VARCHAR(10) NULL, deli_way_cd VARCHAR(10) NULL,
    disp_yn CHAR(1) NOT NULL DEFAULT 'Y', sale_prc BIGINT NOT NULL DEFAULT 0, disp_dlex_amt BIGINT NULL,
    buyr_age_lmt_cd VARCHAR(10) NULL, buy_qty_lmt_yn CHAR(1) NOT NULL DEFAULT 'N', min_lmt_qty INT NULL, max_lmt_qty INT NULL,
    rglr_deli_goods_yn CHAR(1) NOT NULL DEFAULT 'N', frgn_dir_pur_goods_yn CHAR(1) NOT NULL DEFAULT 'N',
    sch_kwd_nm VARCHAR(500) NULL, seo_title_nm VARCHAR(300) NULL, seo_desc VARCHAR(1000) NULL, seo_kwd_nm VARCHAR(500) NULL,
    modl_nm VARCHAR(100) NULL, mfco_nm VARCHAR(200) NULL, home_nm VARCHAR(100) NULL, salemn_nm VARCHAR(200) NULL,
    incom_nm VARCHAR(200) NULL, stk_mgr_yn CHAR(1) NOT NULL DEFAULT 'Y', stk_qty INT NOT NULL DEFAULT 0,
    sfty_stk_qty INT NOT NULL DEFAULT 0, img_path VARCHAR(300) NULL, goods_reg_dtm DATETIME NOT NULL,
    KEY idx_goods_entr_stat (entr_no, sale_stat_cd), KEY idx_goods_ctg (std_ctg_no), KEY idx_goods_brand (brand_no),
    KEY idx_goods_md (md_id), KEY idx_goods_reg (goods_reg_dtm), KEY idx_goods_stat_stock (sale_stat_cd, stk_mgr_yn, stk_qty, sfty_stk_qty)`,
  disp_ctg_goods: `disp_ctg_no VARCHAR(20) NOT NULL, goods_no VARCHAR(20) NOT NULL, PRIMARY KEY (disp_ctg_no, goods_no),
    KEY idx_disp_ctg_goods_goods (goods_no)`,
  mkdp: `mkdp_no VARCHAR(20) NOT NULL PRIMARY KEY, mkdp_nm VARCHAR(200) NOT NULL, bref_desc VARCHAR(500) NULL, intro_conts TEXT NULL`,
  mkdp_divobj_goods: `mkdp_no VARCHAR(20) NOT NULL, divobj_nm VARCHAR(200) NOT NULL, goods_no VARCHAR(20) NOT NULL,
    PRIMARY KEY (mkdp_no, divobj_nm, goods_no), KEY idx_mkdp_divobj_goods_goods (goods_no)`,
};

export const mastersMigration: Migration = {
  name: '0001-bo-masters',
  up: async (knex) => {
    for (const [name, columns] of Object.entries(TABLES)) await knex.raw(`CREATE TABLE \`${name}\` (${columns}) ${T}`);
  },
  down: async (knex) => {
    for (const name of Object.keys(TABLES).reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${name}\``);
  },
};
