import { AI_DESC_OPTIONS, DEMO_CODES, WORK_GROUPS } from '@bo/contracts';
import { expect } from 'chai';
import { boSourceMigrations } from '@bo/db';
import { createTestDatabase } from '@bo/testing';
import { buildMasters, insertMasters, type Masters } from '../src/index.ts';

describe('buildMasters', () => {
  const m: Masters = buildMasters(42);

  it('when built twice with one seed, then the rows are equal; with another seed, then they differ', () => {
    expect(buildMasters(42)).to.deep.equal(m);
    expect(buildMasters(43)).to.not.deep.equal(m);
  });

  it('when built, then there are 2–3 sites, ~50 suppliers and ~300 brands with unique numbers', () => {
    expect(m.site.length).to.be.within(2, 3);
    expect(m.entr.length).to.be.within(40, 60);
    expect(m.brand.length).to.be.within(250, 350);
    expect(new Set(m.brand.map((b) => b.brand_no)).size).to.equal(m.brand.length);
    expect(new Set(m.entr.map((e) => e.entr_no)).size).to.equal(m.entr.length);
  });

  it('when built, then famous brands carry their Korean and English spellings as name or alias', () => {
    const spellings = (no: string) => {
      const b = m.brand.find((x) => x.brand_no === no)!;
      return [b.brand_nm, b.brand_eng_nm, ...m.brand_alias.filter((a) => a.brand_no === no).map((a) => a.alias_nm)];
    };
    const byName = (nm: string) => m.brand.find((b) => b.brand_nm === nm)!.brand_no;
    expect(spellings(byName('나이키'))).to.include.members(['나이키', 'NIKE']);
    expect(spellings(byName('아디다스'))).to.include.members(['아디다스', 'ADIDAS']);
    expect(spellings(byName('삼성전자'))).to.include.members(['삼성전자', 'SAMSUNG', '삼성']);
    // brand_alias is case-insensitive in MySQL: spellings of one brand may not collide.
    for (const b of m.brand) {
      const lowered = m.brand_alias.filter((a) => a.brand_no === b.brand_no).map((a) => a.alias_nm.toLowerCase());
      expect(new Set(lowered).size, b.brand_nm).to.equal(lowered.length);
    }
  });

  it('when built, then the standard categories form a 4-level tree with ~500 leaves, each leaf mapped to an MD with attributes', () => {
    const byNo = new Map(m.std_ctg.map((c) => [c.std_ctg_no, c]));
    for (const c of m.std_ctg) {
      if (c.depth === 1) expect(c.upr_std_ctg_no).to.equal(null);
      else expect(byNo.get(c.upr_std_ctg_no!)?.depth, c.std_ctg_no).to.equal(c.depth - 1);
    }
    const leaves = m.std_ctg.filter((c) => c.leaf_yn === 'Y');
    expect(leaves.every((l) => l.depth === 4)).to.equal(true);
    expect(m.std_ctg.filter((c) => c.leaf_yn === 'N').every((c) => c.depth < 4)).to.equal(true);
    expect(leaves.length).to.be.within(450, 550);
    const mds = new Set(m.bo_user.filter((u) => u.work_grp_cd === WORK_GROUPS.MD).map((u) => u.user_id));
    const pr043 = new Set(m.cm_cd.filter((c) => c.grp_cd === 'PR043').map((c) => c.cd));
    const notiGroups = new Set(m.goods_noti_item.map((i) => i.goods_noti_lisart_cd));
    for (const leaf of leaves) {
      expect(mds.has(leaf.md_id!), leaf.std_ctg_no).to.equal(true);
      expect(notiGroups.has(leaf.goods_noti_lisart_cd!), leaf.std_ctg_no).to.equal(true);
      const atts = m.std_ctg_att.filter((a) => a.std_ctg_no === leaf.std_ctg_no);
      expect(atts.length, leaf.std_ctg_no).to.be.greaterThan(1);
      for (const a of atts) expect(pr043.has(a.att_val_typ_cd), `${leaf.std_ctg_no} ${a.att_cd}`).to.equal(true);
    }
    expect(m.std_ctg.find((c) => c.std_ctg_nm === '반팔티셔츠')?.depth).to.equal(4);
  });

  it('when built, then safety-certification and size-guide flags occur both ways among the leaves', () => {
    const leaves = m.std_ctg.filter((c) => c.leaf_yn === 'Y');
    for (const flag of ['safe_certi_need_yn', 'safe_certi_tgt_yn', 'sz_gde_use_yn'] as const) {
      expect(new Set(leaves.map((l) => l[flag])), flag).to.deep.equal(new Set(['Y', 'N']));
    }
    expect(leaves.filter((l) => l.sz_gde_use_yn === 'Y').every((l) => l.sz_gde_cd && l.sz_gde_reg_meth_cd)).to.equal(true);
  });

  it('when built, then PR050 holds exactly the AI description options and every demo code group is present', () => {
    const group = (g: string) => Object.fromEntries(m.cm_cd.filter((c) => c.grp_cd === g).map((c) => [c.cd, c.cd_nm]));
    expect(group('PR050')).to.deep.equal(Object.fromEntries(Object.entries(AI_DESC_OPTIONS).map(([cd, o]) => [cd, o.name])));
    for (const [g, codes] of Object.entries(DEMO_CODES)) expect(group(g), g).to.deep.equal(codes);
    expect(Object.keys(group('PR043')).length).to.be.greaterThan(2);
  });

  it('when built, then there are admins, MDs with mapped categories, an MD without, and supplier users of existing suppliers', () => {
    const users = (g: string) => m.bo_user.filter((u) => u.work_grp_cd === g);
    expect(users(WORK_GROUPS.ADMIN).length).to.be.greaterThan(0);
    const mapped = new Set(m.md_std_ctg.map((r) => r.user_id));
    expect(users(WORK_GROUPS.MD).filter((u) => mapped.has(u.user_id)).length).to.be.greaterThan(5);
    expect(users(WORK_GROUPS.MD).some((u) => !mapped.has(u.user_id))).to.equal(true);
    const entrs = new Set(m.entr.map((e) => e.entr_no));
    expect(users(WORK_GROUPS.SUPPLIER).length).to.be.greaterThan(0);
    expect(users(WORK_GROUPS.SUPPLIER).every((u) => entrs.has(u.entr_no!))).to.equal(true);
    const leaves = new Set(m.std_ctg.filter((c) => c.leaf_yn === 'Y').map((c) => c.std_ctg_no));
    expect(m.md_std_ctg.every((r) => leaves.has(r.std_ctg_no))).to.equal(true);
  });

  it('when inserted into a migrated database, then every table holds its rows', async () => {
    const db = await createTestDatabase('masters', boSourceMigrations);
    try {
      await insertMasters(db.knex, m);
      for (const [table, rows] of Object.entries(m) as [string, object[]][]) {
        const [[{ n }]] = (await db.knex.raw(`SELECT COUNT(*) AS n FROM \`${table}\``)) as [[{ n: number }]];
        expect(n, table).to.equal(rows.length);
      }
    } finally {
      await db.drop();
    }
  });
});
