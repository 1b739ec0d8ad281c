import { AI_DESC_OPTIONS, CODE_GROUPS, DEMO_CODES, WORK_GROUPS } from '@bo/contracts';
import type { Knex } from '@bo/db';
import {
  INVENTED_SUFFIXES,
  INVENTED_WORDS,
  KOREAN_GIVEN_NAMES,
  KOREAN_SURNAMES,
  REAL_BRANDS,
  SUPPLIER_PREFIXES,
  SUPPLIER_SUFFIXES,
  type BrandSeed,
} from './brand-catalog.ts';
import {
  ATTRIBUTE_PROFILES,
  CATEGORY_TREE,
  NOTICE_GROUPS,
  PR043_NAMES,
  SIZE_GUIDES,
  type AttributeDef,
  type ProfileKey,
} from './category-tree.ts';
import { createRandom, type Random } from './random.ts';

export interface SiteRow {
  site_no: string;
  site_nm: string;
}
export interface EntrRow {
  entr_no: string;
  entr_nm: string;
}
export interface BrandRow {
  brand_no: string;
  brand_nm: string;
  brand_eng_nm: string | null;
  use_yn: 'Y' | 'N';
}
export interface BrandAliasRow {
  brand_no: string;
  alias_nm: string;
}
export interface StdCtgRow {
  std_ctg_no: string;
  upr_std_ctg_no: string | null;
  std_ctg_nm: string;
  depth: number;
  leaf_yn: 'Y' | 'N';
  md_id: string | null;
  goods_noti_lisart_cd: string | null;
  safe_certi_need_yn: 'Y' | 'N';
  safe_certi_tgt_yn: 'Y' | 'N';
  sz_gde_use_yn: 'Y' | 'N';
  sz_gde_reg_meth_cd: string | null;
  sz_gde_cd: string | null;
}
export interface StdCtgAttRow {
  std_ctg_no: string;
  att_cd: string;
  att_nm: string;
  att_val_typ_cd: string;
  disp_seq: number;
}
export interface GoodsNotiItemRow {
  goods_noti_lisart_cd: string;
  goods_noti_item_cd: string;
  noti_item_nm: string;
  disp_seq: number;
}
export interface CmCdRow {
  grp_cd: string;
  cd: string;
  cd_nm: string;
  sort_seq: number;
  use_yn: 'Y' | 'N';
}
export interface BoUserRow {
  user_id: string;
  user_nm: string;
  work_grp_cd: string;
  entr_no: string | null;
}
export interface MdStdCtgRow {
  user_id: string;
  std_ctg_no: string;
}

/** Rows of every master table, in insertion order (parents before children). */
export interface Masters {
  site: SiteRow[];
  entr: EntrRow[];
  brand: BrandRow[];
  brand_alias: BrandAliasRow[];
  std_ctg: StdCtgRow[];
  std_ctg_att: StdCtgAttRow[];
  goods_noti_item: GoodsNotiItemRow[];
  cm_cd: CmCdRow[];
  bo_user: BoUserRow[];
  md_std_ctg: MdStdCtgRow[];
}

/** What the goods generator needs to know about a leaf category beyond its row. */
export interface LeafInfo {
  row: StdCtgRow;
  rootIndex: number;
  groupName: string;
  leafName: string;
  profile: ProfileKey;
  attributes: readonly AttributeDef[];
}

export interface BrandInfo {
  row: BrandRow;
  seed: Pick<BrandSeed, 'roots' | 'imported' | 'home'>;
  /** The supplier that carries most of this brand's goods. */
  homeEntrNo: string;
  /** A real, well-known brand (carries more goods than the invented ones). */
  known: boolean;
}

/** Masters plus the lookups the activity generator draws from. */
export interface Catalog {
  masters: Masters;
  leaves: LeafInfo[];
  brands: BrandInfo[];
  /** Brands per category root (index of CATEGORY_TREE). */
  brandsByRoot: BrandInfo[][];
  mdUsers: BoUserRow[];
}

export const SITES: readonly SiteRow[] = [
  { site_no: 'S001', site_nm: '메인몰' },
  { site_no: 'S002', site_nm: '모바일앱' },
  { site_no: 'S003', site_nm: '아울렛몰' },
];

const SUPPLIER_COUNT = 50;
const BRAND_COUNT = 300;
const MD_COUNT = 12;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function personName(random: Random): string {
  return random.pick(KOREAN_SURNAMES) + random.pick(KOREAN_GIVEN_NAMES);
}

function buildSuppliers(random: Random): EntrRow[] {
  const names = new Set<string>();
  while (names.size < SUPPLIER_COUNT) {
    const core = random.pick(SUPPLIER_PREFIXES) + random.pick(SUPPLIER_SUFFIXES);
    const form = random.weighted([5, 3, 1]);
    names.add(form === 0 ? `(주)${core}` : form === 1 ? `${core}(주)` : `주식회사 ${core}`);
  }
  return [...names].map((entr_nm, i) => ({ entr_no: `E${pad(i + 1, 4)}`, entr_nm }));
}

/** The usual ways an invented brand gets typed: with a space, or the English name run together. */
function inventedAliases(ko: string, en: string, suffixKo: string, random: Random): string[] {
  const aliases = [en];
  if (suffixKo) aliases.push(`${ko.slice(0, ko.length - suffixKo.length)} ${suffixKo}`);
  if (en.includes(' ') && random.chance(0.5)) aliases.push(en.replace(/ /g, ''));
  return aliases;
}

/** Aliases distinct under the case-insensitive collation of brand_alias, without the name itself. */
function distinctAliases(nm: string, aliases: readonly string[]): string[] {
  const seen = new Set([nm.toLowerCase()]);
  return aliases.filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function buildBrands(random: Random, suppliers: EntrRow[]) {
  const seeds: BrandSeed[] = [...REAL_BRANDS];
  const taken = new Set(seeds.map((s) => s.nm));
  const suffixOf = new Map<string, string>();
  while (seeds.length < BRAND_COUNT) {
    const [wordKo, wordEn] = random.pick(INVENTED_WORDS);
    const [sufKo, sufEn, roots] = random.pick(INVENTED_SUFFIXES);
    const nm = wordKo + sufKo;
    if (taken.has(nm)) continue;
    taken.add(nm);
    suffixOf.set(nm, sufKo);
    const chosenRoots = random.shuffle([...roots]).slice(0, random.int(1, Math.min(2, roots.length)));
    seeds.push({ nm, eng: wordEn + sufEn, aliases: [], roots: chosenRoots, imported: false, home: '대한민국' });
  }
  const brand: BrandRow[] = [];
  const brand_alias: BrandAliasRow[] = [];
  const brands: BrandInfo[] = [];
  seeds.forEach((s, i) => {
    const row: BrandRow = {
      brand_no: `B${pad(i + 1, 4)}`,
      brand_nm: s.nm,
      // A few invented brands were registered without an English name, or retired.
      brand_eng_nm: i >= REAL_BRANDS.length && random.chance(0.05) ? null : s.eng,
      use_yn: i >= REAL_BRANDS.length && random.chance(0.04) ? 'N' : 'Y',
    };
    brand.push(row);
    const suffix = suffixOf.get(s.nm);
    const aliases = suffix === undefined ? [s.eng, ...s.aliases] : inventedAliases(s.nm, s.eng, suffix, random);
    for (const alias_nm of distinctAliases(s.nm, aliases)) brand_alias.push({ brand_no: row.brand_no, alias_nm });
    brands.push({ row, seed: s, homeEntrNo: random.pick(suppliers).entr_no, known: i < REAL_BRANDS.length });
  });
  return { brand, brand_alias, brands };
}

function buildCategories(random: Random, mdUsers: BoUserRow[]) {
  const std_ctg: StdCtgRow[] = [];
  const std_ctg_att: StdCtgAttRow[] = [];
  const md_std_ctg: MdStdCtgRow[] = [];
  const leaves: LeafInfo[] = [];
  // The last MD has no mapped categories: the dashboard's "MD without mapping" case.
  const mappedMds = mdUsers.slice(0, -1);
  const groupCount = CATEGORY_TREE.reduce((n, [, groups]) => n + groups.length, 0);
  const groupMd = random.shuffle(Array.from({ length: groupCount }, (_, i) => mappedMds[i % mappedMds.length]!.user_id));
  let groupIndex = 0;
  const node = (no: string, upr: string | null, nm: string, depth: number, md: string | null): StdCtgRow => ({
    std_ctg_no: no,
    upr_std_ctg_no: upr,
    std_ctg_nm: nm,
    depth,
    leaf_yn: 'N',
    md_id: md,
    goods_noti_lisart_cd: null,
    safe_certi_need_yn: 'N',
    safe_certi_tgt_yn: 'N',
    sz_gde_use_yn: 'N',
    sz_gde_reg_meth_cd: null,
    sz_gde_cd: null,
  });
  CATEGORY_TREE.forEach(([rootNm, groups], r) => {
    const rootNo = pad(r + 1, 2);
    std_ctg.push(node(rootNo, null, rootNm, 1, null));
    groups.forEach(([groupNm, traits, subs], g) => {
      const md = groupMd[groupIndex++]!;
      const groupNo = rootNo + pad(g + 1, 2);
      std_ctg.push(node(groupNo, rootNo, groupNm, 2, md));
      subs.forEach(([subNm, leafList], s) => {
        const subNo = groupNo + pad(s + 1, 2);
        std_ctg.push(node(subNo, groupNo, subNm, 3, md));
        leafList.split(',').forEach((leafNm, l) => {
          const guide = traits.sizeGuide ? SIZE_GUIDES[traits.sizeGuide]! : undefined;
          const row: StdCtgRow = {
            ...node(subNo + pad(l + 1, 2), subNo, leafNm, 4, md),
            leaf_yn: 'Y',
            goods_noti_lisart_cd: traits.noti,
            safe_certi_need_yn: traits.safe === 'need' ? 'Y' : 'N',
            safe_certi_tgt_yn: traits.safe ? 'Y' : 'N',
            sz_gde_use_yn: guide ? 'Y' : 'N',
            sz_gde_reg_meth_cd: guide?.regMethCd ?? null,
            sz_gde_cd: guide ? traits.sizeGuide! : null,
          };
          std_ctg.push(row);
          md_std_ctg.push({ user_id: md, std_ctg_no: row.std_ctg_no });
          const attributes = ATTRIBUTE_PROFILES[traits.profile];
          attributes.forEach((a, i) =>
            std_ctg_att.push({ std_ctg_no: row.std_ctg_no, att_cd: a.attCd, att_nm: a.attNm, att_val_typ_cd: a.typ, disp_seq: i + 1 }),
          );
          leaves.push({ row, rootIndex: r, groupName: groupNm, leafName: leafNm, profile: traits.profile, attributes });
        });
      });
    });
  });
  return { std_ctg, std_ctg_att, md_std_ctg, leaves };
}

function buildCodes(): CmCdRow[] {
  const rows: CmCdRow[] = [];
  const group = (grp_cd: string, codes: Record<string, string>) =>
    Object.entries(codes).forEach(([cd, cd_nm], i) => rows.push({ grp_cd, cd, cd_nm, sort_seq: i + 1, use_yn: 'Y' }));
  group(CODE_GROUPS.AI_DESC_OPTION, Object.fromEntries(Object.entries(AI_DESC_OPTIONS).map(([cd, o]) => [cd, o.name])));
  group(CODE_GROUPS.ATTRIBUTE_VALUE_TYPE, PR043_NAMES);
  for (const [grp, codes] of Object.entries(DEMO_CODES)) group(grp, codes);
  return rows;
}

function buildUsers(random: Random, suppliers: EntrRow[]): BoUserRow[] {
  const users: BoUserRow[] = [
    { user_id: 'admin', user_nm: '시스템관리자', work_grp_cd: WORK_GROUPS.ADMIN, entr_no: null },
    { user_id: 'admin02', user_nm: `${personName(random)}(운영)`, work_grp_cd: WORK_GROUPS.ADMIN, entr_no: null },
  ];
  for (let i = 1; i <= MD_COUNT; i++) {
    users.push({ user_id: `md${pad(i, 3)}`, user_nm: `${personName(random)} MD`, work_grp_cd: WORK_GROUPS.MD, entr_no: null });
  }
  for (const s of suppliers) {
    const n = Number(s.entr_no.slice(1));
    users.push({
      user_id: `entr${pad(n, 4)}`,
      user_nm: `${personName(random)}(${s.entr_nm})`,
      work_grp_cd: WORK_GROUPS.SUPPLIER,
      entr_no: s.entr_no,
    });
    // Some suppliers have a second account; both see the same supplier's data.
    if (n % 10 === 1) {
      users.push({
        user_id: `entr${pad(n, 4)}b`,
        user_nm: `${personName(random)}(${s.entr_nm})`,
        work_grp_cd: WORK_GROUPS.SUPPLIER,
        entr_no: s.entr_no,
      });
    }
  }
  return users;
}

function buildNoticeItems(): GoodsNotiItemRow[] {
  return Object.entries(NOTICE_GROUPS).flatMap(([cd, g]) =>
    g.items.map((noti_item_nm, i) => ({ goods_noti_lisart_cd: cd, goods_noti_item_cd: pad(i + 1, 3), noti_item_nm, disp_seq: i + 1 })),
  );
}

/** Every master row and the lookups for goods generation, from the seed alone. */
export function buildCatalog(seed: number): Catalog {
  const random = createRandom(seed);
  const entr = buildSuppliers(random.fork(1));
  const bo_user = buildUsers(random.fork(2), entr);
  const mdUsers = bo_user.filter((u) => u.work_grp_cd === WORK_GROUPS.MD);
  const { brand, brand_alias, brands } = buildBrands(random.fork(3), entr);
  const { std_ctg, std_ctg_att, md_std_ctg, leaves } = buildCategories(random.fork(4), mdUsers);
  const brandsByRoot = CATEGORY_TREE.map((_, r) => brands.filter((b) => b.seed.roots.includes(r) && b.row.use_yn === 'Y'));
  return {
    masters: {
      site: SITES.map((s) => ({ ...s })),
      entr,
      brand,
      brand_alias,
      std_ctg,
      std_ctg_att,
      goods_noti_item: buildNoticeItems(),
      cm_cd: buildCodes(),
      bo_user,
      md_std_ctg,
    },
    leaves,
    brands,
    brandsByRoot,
    mdUsers,
  };
}

/** The master tables of the demo platform; pure and deterministic in `seed`. */
export function buildMasters(seed: number): Masters {
  return buildCatalog(seed).masters;
}

/** Insert the master rows (into empty tables), parents first. */
export async function insertMasters(knex: Knex, masters: Masters, chunkSize = 500): Promise<void> {
  for (const [table, rows] of Object.entries(masters) as [keyof Masters, object[]][]) {
    for (let i = 0; i < rows.length; i += chunkSize) await knex(table).insert(rows.slice(i, i + chunkSize));
  }
}
