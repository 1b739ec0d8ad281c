import { DEMO_CODES } from '@bo/contracts';
import { expect } from 'chai';
import { addDays, boSourceMigrations, memberBaseMigrations, type Knex } from '@bo/db';
import { createTestDatabase, type TestDatabase } from '@bo/testing';
import { BO_SOURCE_TABLES, MEMBER_TABLES, seedDatabases, type SeedOptions } from '../src/index.ts';

/** A demo-shaped set small enough for a test: 40 days over two month ends. */
const SIZE = { seed: 7, days: 40, goods: 120, events: 6000, endDate: '2025-03-10' } as const;
const START = addDays(SIZE.endDate, -(SIZE.days - 1));
const AFTER_END = `${addDays(SIZE.endDate, 1)} 00:00:00`;

interface Pair {
  bo: TestDatabase;
  member: TestDatabase;
}

async function createPair(label: string): Promise<Pair> {
  return {
    bo: await createTestDatabase(`gen_${label}`, boSourceMigrations),
    member: await createTestDatabase(`gen_${label}_m`, memberBaseMigrations),
  };
}

async function seedPair(pair: Pair, options: Partial<SeedOptions> = {}) {
  return seedDatabases({ ...SIZE, boUrl: pair.bo.url, memberUrl: pair.member.url, ...options });
}

async function rows<T = Record<string, unknown>>(knex: Knex, sql: string, bindings: readonly (string | number)[] = []): Promise<T[]> {
  const [result] = (await knex.raw(sql, bindings)) as [T[]];
  return result;
}

async function checksums(knex: Knex, tables: readonly string[]): Promise<Record<string, string>> {
  const result = await rows<{ Table: string; Checksum: number | string }>(
    knex,
    `CHECKSUM TABLE ${tables.map((t) => `\`${t}\``).join(', ')}`,
  );
  return Object.fromEntries(result.map((r) => [r.Table.split('.').pop()!, String(r.Checksum)]));
}

const MEMBER_DATA_TABLES = MEMBER_TABLES.filter((t) => t !== 'staff_dc_lim_hist');

describe('generated data set', function () {
  this.timeout(180_000);
  let a: Pair;
  let b: Pair;
  let c: Pair;

  before(async () => {
    [a, b, c] = [await createPair('a'), await createPair('b'), await createPair('c')];
    await seedPair(a, { loadMethod: 'load-data' });
    await seedPair(b, { loadMethod: 'insert' });
    await seedPair(c, { seed: SIZE.seed + 1 });
  });
  after(async () => {
    for (const p of [a, b, c]) {
      await p?.bo.drop();
      await p?.member.drop();
    }
  });

  const boRows = <T = Record<string, unknown>>(sql: string, bindings: readonly (string | number)[] = []) =>
    rows<T>(a.bo.knex, sql, bindings);
  const count = async (sql: string, bindings: readonly (string | number)[] = []) =>
    Number((await boRows<{ n: number }>(sql, bindings))[0]!.n);

  describe('determinism', () => {
    it('when the same seed is loaded twice (LOAD DATA and INSERT), then every table has the same checksum', async () => {
      expect(await checksums(b.bo.knex, BO_SOURCE_TABLES)).to.deep.equal(await checksums(a.bo.knex, BO_SOURCE_TABLES));
      expect(await checksums(b.member.knex, MEMBER_DATA_TABLES)).to.deep.equal(await checksums(a.member.knex, MEMBER_DATA_TABLES));
    });

    it('when another seed is loaded, then the goods, activity and member tables differ', async () => {
      const [mine, other] = [await checksums(a.bo.knex, BO_SOURCE_TABLES), await checksums(c.bo.knex, BO_SOURCE_TABLES)];
      for (const t of [
        'entr',
        'brand',
        'goods',
        'ord',
        'ord_stat_evt',
        'goods_inflow_log',
        'goods_review',
        'goods_qna',
        'restock_noti_req',
      ]) {
        expect(other[t], t).to.not.equal(mine[t]);
      }
      expect((await checksums(c.member.knex, ['mbr'])).mbr).to.not.equal((await checksums(a.member.knex, ['mbr'])).mbr);
    });

    it('when loaded again over itself with --truncate and rebuilt indexes, then the rows and the index definitions are the same', async () => {
      const indexes = () =>
        boRows(`SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS
                 WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1, 2, 3`);
      const [beforeIndexes, beforeSums] = [await indexes(), await checksums(a.bo.knex, BO_SOURCE_TABLES)];
      await seedPair(a, { truncate: true, rebuildIndexes: true });
      expect(await indexes()).to.deep.equal(beforeIndexes);
      expect(await checksums(a.bo.knex, BO_SOURCE_TABLES)).to.deep.equal(beforeSums);
    });

    it('when the bo database already has goods, then --if-empty loads nothing and a plain load refuses', async () => {
      const sums = await checksums(a.bo.knex, BO_SOURCE_TABLES);
      expect((await seedPair(a, { ifEmpty: true })).skipped).to.equal(true);
      let error: Error | undefined;
      await seedPair(a).catch((e: Error) => (error = e));
      expect(error?.message).to.match(/already has goods rows.*--truncate/);
      expect(await checksums(a.bo.knex, BO_SOURCE_TABLES)).to.deep.equal(sums);
    });
  });

  describe('references', () => {
    const ORPHANS: Record<string, string> = {
      "every event's order exists":
        'SELECT COUNT(*) AS n FROM ord_stat_evt e LEFT JOIN ord o ON o.ord_no = e.ord_no WHERE o.ord_no IS NULL',
      "every event's goods exists":
        'SELECT COUNT(*) AS n FROM ord_stat_evt e LEFT JOIN goods g ON g.goods_no = e.goods_no WHERE g.goods_no IS NULL',
      "every event's site exists":
        'SELECT COUNT(*) AS n FROM ord_stat_evt e LEFT JOIN site s ON s.site_no = e.site_no WHERE s.site_no IS NULL',
      "every event has its order's site":
        'SELECT COUNT(*) AS n FROM ord_stat_evt e JOIN ord o ON o.ord_no = e.ord_no WHERE o.site_no <> e.site_no',
      "every order's payment method is an OM013 code": `SELECT COUNT(*) AS n FROM ord o LEFT JOIN cm_cd c ON c.grp_cd = 'OM013' AND c.cd = o.pay_way_cd WHERE c.cd IS NULL`,
      "every goods' supplier exists": 'SELECT COUNT(*) AS n FROM goods g LEFT JOIN entr e ON e.entr_no = g.entr_no WHERE e.entr_no IS NULL',
      "every goods' brand exists":
        'SELECT COUNT(*) AS n FROM goods g LEFT JOIN brand b ON b.brand_no = g.brand_no WHERE g.brand_no IS NOT NULL AND b.brand_no IS NULL',
      "every goods' category exists and is a leaf": `SELECT COUNT(*) AS n FROM goods g LEFT JOIN std_ctg c ON c.std_ctg_no = g.std_ctg_no AND c.leaf_yn = 'Y' WHERE c.std_ctg_no IS NULL`,
      "every goods' MD exists":
        'SELECT COUNT(*) AS n FROM goods g LEFT JOIN bo_user u ON u.user_id = g.md_id WHERE g.md_id IS NOT NULL AND u.user_id IS NULL',
      "every category's parent exists":
        'SELECT COUNT(*) AS n FROM std_ctg c LEFT JOIN std_ctg p ON p.std_ctg_no = c.upr_std_ctg_no WHERE c.upr_std_ctg_no IS NOT NULL AND p.std_ctg_no IS NULL',
      "every category's MD exists":
        'SELECT COUNT(*) AS n FROM std_ctg c LEFT JOIN bo_user u ON u.user_id = c.md_id WHERE c.md_id IS NOT NULL AND u.user_id IS NULL',
      "every category's notice item group exists": `SELECT COUNT(*) AS n FROM std_ctg c WHERE c.goods_noti_lisart_cd IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM goods_noti_item i WHERE i.goods_noti_lisart_cd = c.goods_noti_lisart_cd)`,
      "every attribute's category exists":
        'SELECT COUNT(*) AS n FROM std_ctg_att a LEFT JOIN std_ctg c ON c.std_ctg_no = a.std_ctg_no WHERE c.std_ctg_no IS NULL',
      "every alias' brand exists":
        'SELECT COUNT(*) AS n FROM brand_alias a LEFT JOIN brand b ON b.brand_no = a.brand_no WHERE b.brand_no IS NULL',
      "every MD mapping's user exists":
        'SELECT COUNT(*) AS n FROM md_std_ctg m LEFT JOIN bo_user u ON u.user_id = m.user_id WHERE u.user_id IS NULL',
      "every MD mapping's category exists":
        'SELECT COUNT(*) AS n FROM md_std_ctg m LEFT JOIN std_ctg c ON c.std_ctg_no = m.std_ctg_no WHERE c.std_ctg_no IS NULL',
      "every supplier user's supplier exists":
        'SELECT COUNT(*) AS n FROM bo_user u LEFT JOIN entr e ON e.entr_no = u.entr_no WHERE u.entr_no IS NOT NULL AND e.entr_no IS NULL',
      "every review's goods exists":
        'SELECT COUNT(*) AS n FROM goods_review r LEFT JOIN goods g ON g.goods_no = r.goods_no WHERE g.goods_no IS NULL',
      "every restock request's goods exists":
        'SELECT COUNT(*) AS n FROM restock_noti_req r LEFT JOIN goods g ON g.goods_no = r.goods_no WHERE g.goods_no IS NULL',
      "every question's goods exists with the question's supplier":
        'SELECT COUNT(*) AS n FROM goods_qna q LEFT JOIN goods g ON g.goods_no = q.goods_no WHERE g.goods_no IS NULL OR g.entr_no <> q.entr_no',
      "every page view's goods exists":
        'SELECT COUNT(*) AS n FROM goods_inflow_log l LEFT JOIN goods g ON g.goods_no = l.goods_no WHERE g.goods_no IS NULL',
      "every document page's goods exists":
        'SELECT COUNT(*) AS n FROM goods_doc_page d LEFT JOIN goods g ON g.goods_no = d.goods_no WHERE g.goods_no IS NULL',
      "every display category's goods exists":
        'SELECT COUNT(*) AS n FROM disp_ctg_goods d LEFT JOIN goods g ON g.goods_no = d.goods_no WHERE g.goods_no IS NULL',
      "every promotion divider's goods and promotion exist": `SELECT COUNT(*) AS n FROM mkdp_divobj_goods d LEFT JOIN goods g ON g.goods_no = d.goods_no
        LEFT JOIN mkdp m ON m.mkdp_no = d.mkdp_no WHERE g.goods_no IS NULL OR m.mkdp_no IS NULL`,
    };
    for (const [label, sql] of Object.entries(ORPHANS)) {
      it(`when generated, then ${label}`, async () => {
        expect(await count(sql)).to.equal(0);
      });
    }

    it("when generated, then every order's, review's and restock request's member and every staff limit's member exist in the member database", async () => {
      const members = new Set((await rows<{ mbr_no: string }>(a.member.knex, 'SELECT mbr_no FROM mbr')).map((r) => r.mbr_no));
      for (const table of ['ord', 'goods_review', 'restock_noti_req', 'goods_qna']) {
        const used = await boRows<{ mbr_no: string }>(`SELECT DISTINCT mbr_no FROM ${table}`);
        expect(
          used.filter((r) => !members.has(r.mbr_no)),
          table,
        ).to.deep.equal([]);
      }
      const limits = await rows<{ mbr_no: string }>(a.member.knex, 'SELECT mbr_no FROM staff_dc_lim');
      expect(limits.filter((r) => !members.has(r.mbr_no))).to.deep.equal([]);
    });
  });

  describe('shape', () => {
    it('when generated, then every dashboard sale status is present, 00 being on-sale stock-managed goods at or below safety stock', async () => {
      const statuses = await boRows<{ s: string; n: number }>(
        `SELECT CASE WHEN sale_stat_cd = '10' AND stk_mgr_yn = 'Y' AND stk_qty <= sfty_stk_qty THEN '00' ELSE sale_stat_cd END AS s, COUNT(*) AS n
           FROM goods GROUP BY 1`,
      );
      expect(statuses.map((r) => r.s).sort()).to.deep.equal(['00', '02', '03', '10', '20']);
      expect(await count(`SELECT COUNT(*) AS n FROM goods WHERE sale_stat_cd = '20' AND stk_qty > 0`)).to.equal(0);
    });

    it('when generated, then some goods lack SEO fields, keywords, brand or model, and names read brand + line + model', async () => {
      for (const column of ['seo_title_nm', 'seo_desc', 'sch_kwd_nm', 'brand_no', 'modl_nm']) {
        expect(await count(`SELECT COUNT(*) AS n FROM goods WHERE ${column} IS NULL`), column).to.be.greaterThan(0);
      }
      const named = await boRows<{ goods_nm: string; brand_nm: string; modl_nm: string }>(
        'SELECT g.goods_nm, b.brand_nm, g.modl_nm FROM goods g JOIN brand b ON b.brand_no = g.brand_no WHERE g.modl_nm IS NOT NULL',
      );
      expect(named.length).to.be.greaterThan(0);
      for (const g of named) expect(g.goods_nm.startsWith(`${g.brand_nm} `) && g.goods_nm.includes(g.modl_nm), g.goods_nm).to.equal(true);
    });

    it('when generated, then orders and sales each have occurrences and cancellations, with 2nd and 3rd discounts', async () => {
      const kinds = await boRows<{ k: string }>(`SELECT DISTINCT CONCAT(agrt_gb_cd, '/', evt_gb_cd) AS k FROM ord_stat_evt ORDER BY 1`);
      expect(kinds.map((r) => r.k)).to.deep.equal(['01/10', '01/20', '02/10', '02/20']);
      expect(await count('SELECT COUNT(*) AS n FROM ord_stat_evt WHERE dc_amt_2nd > 0')).to.be.greaterThan(0);
      expect(await count('SELECT COUNT(*) AS n FROM ord_stat_evt WHERE dc_amt_3rd > 0')).to.be.greaterThan(0);
      expect(await count('SELECT COUNT(*) AS n FROM ord_stat_evt WHERE qty <= 0 OR amt <= 0 OR dc_amt_2nd < 0 OR dc_amt_3rd < 0')).to.equal(
        0,
      );
    });

    it('when generated, then orders are cancelled on later days, some in the month after the order', async () => {
      const cancels = await boRows<{ ord_dtm: string; evt_dtm: string }>(
        `SELECT o.ord_dtm, e.evt_dtm FROM ord_stat_evt e JOIN ord o ON o.ord_no = e.ord_no WHERE e.agrt_gb_cd = '01' AND e.evt_gb_cd = '20'`,
      );
      expect(cancels.every((c) => c.evt_dtm >= c.ord_dtm)).to.equal(true);
      expect(cancels.some((c) => c.evt_dtm.slice(0, 10) > c.ord_dtm.slice(0, 10))).to.equal(true);
      expect(cancels.some((c) => c.evt_dtm.slice(0, 7) > c.ord_dtm.slice(0, 7))).to.equal(true);
    });

    it('when generated, then no order line is cancelled or returned beyond what was ordered or sold', async () => {
      const lines = await boRows<{ ordered: number; cancelled: number; sold: number; returned: number }>(
        `SELECT SUM(CASE WHEN agrt_gb_cd = '01' AND evt_gb_cd = '10' THEN qty ELSE 0 END) AS ordered,
                SUM(CASE WHEN agrt_gb_cd = '01' AND evt_gb_cd = '20' THEN qty ELSE 0 END) AS cancelled,
                SUM(CASE WHEN agrt_gb_cd = '02' AND evt_gb_cd = '10' THEN qty ELSE 0 END) AS sold,
                SUM(CASE WHEN agrt_gb_cd = '02' AND evt_gb_cd = '20' THEN qty ELSE 0 END) AS returned
           FROM ord_stat_evt e JOIN ord o ON o.ord_no = e.ord_no WHERE o.ord_dtm >= ? GROUP BY e.ord_no, e.ord_goods_seq`,
        [`${START} 00:00:00`],
      );
      expect(lines.length).to.be.greaterThan(1000);
      for (const l of lines) {
        expect(l.cancelled + l.sold).to.be.at.most(l.ordered);
        expect(l.returned).to.be.at.most(l.sold);
      }
    });

    it('when generated, then every OM013 payment method is used', async () => {
      const used = await boRows<{ pay_way_cd: string }>('SELECT DISTINCT pay_way_cd FROM ord ORDER BY 1');
      expect(used.map((r) => r.pay_way_cd)).to.deep.equal(Object.keys(DEMO_CODES.OM013!).sort());
    });

    it('when generated, then events and page views fall inside the period, every day has orders, evenings are busier than nights', async () => {
      const bounds = async (table: string, column: string) =>
        (await boRows<{ lo: string; hi: string }>(`SELECT MIN(${column}) AS lo, MAX(${column}) AS hi FROM ${table}`))[0]!;
      for (const [table, column] of [
        ['ord_stat_evt', 'evt_dtm'],
        ['goods_inflow_log', 'inflow_dtm'],
        ['goods_review', 'reg_dtm'],
        ['goods_qna', 'quest_dtm'],
      ]) {
        const { lo, hi } = await bounds(table!, column!);
        expect(lo >= `${START} 00:00:00` && hi < AFTER_END, `${table} ${lo} … ${hi}`).to.equal(true);
      }
      const days = await count(`SELECT COUNT(DISTINCT DATE(evt_dtm)) AS n FROM ord_stat_evt WHERE agrt_gb_cd = '01' AND evt_gb_cd = '10'`);
      expect(days).to.equal(SIZE.days);
      const hour = (h: number) => count(`SELECT COUNT(*) AS n FROM ord_stat_evt WHERE agrt_gb_cd = '01' AND HOUR(evt_dtm) = ?`, [h]);
      expect(await hour(21)).to.be.greaterThan(3 * (await hour(4)));
    });

    it('when generated, then event numbers rise with event time', async () => {
      expect(
        await count('SELECT COUNT(*) AS n FROM ord_stat_evt e JOIN ord_stat_evt f ON f.evt_no = e.evt_no + 1 WHERE f.evt_dtm < e.evt_dtm'),
      ).to.equal(0);
    });

    it('when generated, then there are about three page views per event and about the requested number of events', async () => {
      const events = await count('SELECT COUNT(*) AS n FROM ord_stat_evt');
      const views = await count('SELECT COUNT(*) AS n FROM goods_inflow_log');
      expect(events).to.be.within(SIZE.events * 0.85, SIZE.events * 1.15);
      expect(views / events).to.be.within(2.5, 3.5);
    });

    it('when generated, then reviews have ratings 1–5, deleted and undisplayed ones, and many in the last 7 days', async () => {
      const recent = `${addDays(SIZE.endDate, -6)} 00:00:00`;
      const stars = await boRows<{ star_score: number }>('SELECT DISTINCT star_score FROM goods_review ORDER BY 1');
      expect(stars.map((r) => r.star_score)).to.deep.equal([1, 2, 3, 4, 5]);
      expect(await count(`SELECT COUNT(*) AS n FROM goods_review WHERE del_yn = 'Y'`)).to.be.greaterThan(0);
      expect(await count(`SELECT COUNT(*) AS n FROM goods_review WHERE rev_disp_stat_cd <> '20'`)).to.be.greaterThan(0);
      const counted = `reg_dtm >= ? AND del_yn = 'N' AND rev_disp_stat_cd = '20'`;
      expect(await count(`SELECT COUNT(*) AS n FROM goods_review WHERE ${counted} AND star_score >= 4`, [recent])).to.be.greaterThan(0);
      expect(await count(`SELECT COUNT(*) AS n FROM goods_review WHERE ${counted} AND star_score <= 2`, [recent])).to.be.greaterThan(0);
      expect(
        await count(`SELECT COUNT(*) AS n FROM goods_review WHERE reg_dtm >= ? AND (del_yn = 'Y' OR rev_disp_stat_cd <> '20')`, [recent]),
      ).to.be.greaterThan(0);
      const all = await count('SELECT COUNT(*) AS n FROM goods_review');
      expect(await count('SELECT COUNT(*) AS n FROM goods_review WHERE reg_dtm >= ?', [recent])).to.be.within(all * 0.2, all - 1);
    });

    it('when generated, then restock requests are waiting and notified, and questions awaiting and answered (answered after asked)', async () => {
      expect(
        (await boRows<{ noti_yn: string }>('SELECT DISTINCT noti_yn FROM restock_noti_req ORDER BY 1')).map((r) => r.noti_yn),
      ).to.deep.equal(['N', 'Y']);
      expect((await boRows<{ s: string }>('SELECT DISTINCT proc_stat_cd AS s FROM goods_qna ORDER BY 1')).map((r) => r.s)).to.deep.equal([
        '10',
        '20',
      ]);
      expect(await count(`SELECT COUNT(*) AS n FROM goods_qna WHERE (proc_stat_cd = '10') <> (proc_stat_dtm IS NULL)`)).to.equal(0);
      expect(await count(`SELECT COUNT(*) AS n FROM goods_qna WHERE proc_stat_dtm < quest_dtm`)).to.equal(0);
      expect(await count(`SELECT COUNT(*) AS n FROM goods_qna q JOIN cm_cd c ON c.grp_cd = 'QNA_TYP' AND c.cd = q.quest_typ_cd`)).to.equal(
        await count('SELECT COUNT(*) AS n FROM goods_qna'),
      );
    });

    it('when generated, then part of the goods have multi-page spec sheets about materials, sizes and care', async () => {
      const files = await boRows<{ goods_no: string; file_nm: string; pages: number; text: string }>(
        `SELECT goods_no, file_nm, COUNT(*) AS pages, GROUP_CONCAT(page_text ORDER BY page_no SEPARATOR '\\n') AS text
           FROM goods_doc_page GROUP BY goods_no, file_nm`,
      );
      const withDocs = new Set(files.map((f) => f.goods_no));
      expect(withDocs.size).to.be.within(1, SIZE.goods - 1);
      for (const f of files) expect(f.file_nm).to.match(new RegExp(`^${f.goods_no}_(spec|manual)\\.pdf$`));
      const specs = files.filter((f) => f.file_nm.endsWith('_spec.pdf'));
      expect(specs.some((f) => f.pages >= 3)).to.equal(true);
      expect(specs.every((f) => f.pages >= 2 && f.text.includes('소재'))).to.equal(true);
      expect(specs.some((f) => /사이즈|크기/.test(f.text) && /세탁|관리/.test(f.text))).to.equal(true);
      const pageNumbers = await boRows<{ bad: number }>(
        'SELECT COUNT(*) AS bad FROM (SELECT goods_no, file_nm FROM goods_doc_page GROUP BY goods_no, file_nm HAVING MIN(page_no) <> 1 OR MAX(page_no) <> COUNT(*)) x',
      );
      expect(Number(pageNumbers[0]!.bad)).to.equal(0);
    });

    it('when generated, then goods are in display categories and promotions have dividers with goods', async () => {
      expect(await count('SELECT COUNT(DISTINCT goods_no) AS n FROM disp_ctg_goods')).to.be.greaterThan(SIZE.goods / 2);
      expect(await count('SELECT COUNT(*) AS n FROM mkdp')).to.be.greaterThan(0);
      expect(await count('SELECT COUNT(DISTINCT mkdp_no, divobj_nm) AS n FROM mkdp_divobj_goods')).to.be.greaterThan(1);
    });

    it('when generated, then the member database holds every staff-limit case the rsrvUseGbCd rules need', async () => {
      const cases = await rows<{ stat: string; staff: string; lim: number | null; rmnd: number | null }>(
        a.member.knex,
        `SELECT m.mbr_stat_cd AS stat, m.staff_yn AS staff, l.lim_amt AS lim, l.rmnd_amt AS rmnd FROM mbr m LEFT JOIN staff_dc_lim l ON l.mbr_no = m.mbr_no`,
      );
      const some = (label: string, pick: (r: (typeof cases)[number]) => boolean) => expect(cases.some(pick), label).to.equal(true);
      const activeStaff = (r: (typeof cases)[number]) => r.stat === '10' && r.staff === 'Y' && r.lim !== null;
      some('active staff with a limit partly used', (r) => activeStaff(r) && r.rmnd! > 0 && r.rmnd! < r.lim!);
      some('active staff with nothing left', (r) => activeStaff(r) && r.rmnd === 0);
      some('active staff with the whole limit left', (r) => activeStaff(r) && r.rmnd === r.lim);
      some('withdrawn staff', (r) => r.stat === '90' && r.staff === 'Y');
      some('staff without a limit row', (r) => r.stat === '10' && r.staff === 'Y' && r.lim === null);
      some('active non-staff member', (r) => r.stat === '10' && r.staff === 'N' && r.lim === null);
      expect(cases.filter((r) => r.lim !== null && (r.rmnd! < 0 || r.rmnd! > r.lim))).to.deep.equal([]);
    });
  });
});

describe('an interrupted bulk load', function () {
  this.timeout(120_000);
  let bo: TestDatabase;
  before(async () => {
    bo = await createTestDatabase('gen_stop', boSourceMigrations);
  });
  after(async () => bo?.drop());

  it('when the load stops half-way, then the indexes dropped for it are back and the error reaches the caller', async () => {
    const indexes = () =>
      rows(
        bo.knex,
        `SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1, 2, 3`,
      );
    const before = await indexes();
    let error: Error | undefined;
    await seedDatabases({
      ...SIZE,
      boUrl: bo.url,
      rebuildIndexes: true,
      onProgress: (p) => {
        if (p.phase === 'activity' && p.day === 3) throw new Error('stop here');
      },
    }).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('stop here');
    expect(await indexes()).to.deep.equal(before);
  });
});
