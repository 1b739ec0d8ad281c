import type { GeneratedGoods } from './goods.ts';
import { PROFILE_TRAITS } from './goods-traits.ts';
import type { Plan } from './plan.ts';
import { createRandom, type Random } from './random.ts';
import { tsv, type RowSink } from './row-sink.ts';

export const DOC_PAGE_COLUMNS = ['goods_no', 'file_nm', 'page_no', 'page_text'] as const;

const valueOf = (g: GeneratedGoods, attCd: string) => g.attributeValues.find((a) => a.def.attCd === attCd)?.value;

function specSheet(g: GeneratedGoods, random: Random): string[] {
  const traits = PROFILE_TRAITS[g.leaf.profile];
  const r = g.row;
  const brand = g.brand?.row.brand_nm ?? '자체제작';
  const material = valueOf(g, 'MATERIAL');
  const attributes = g.attributeValues.map((a) => `- ${a.def.attNm}: ${a.value}`).join('\n');
  const pages = [
    [
      `제품 사양서 (${r.goods_no})`,
      `상품명: ${r.goods_nm}`,
      `브랜드: ${brand}${g.brand?.row.brand_eng_nm ? ` (${g.brand.row.brand_eng_nm})` : ''}`,
      `모델명: ${r.modl_nm ?? '미표기'}`,
      `분류: ${g.leaf.groupName} > ${g.leaf.leafName}`,
      `제조사: ${r.mfco_nm ?? '상세페이지 참조'} / 원산지: ${r.home_nm ?? '상세페이지 참조'}`,
      `${g.leaf.leafName} 제품으로 ${random.pick(traits.lines)} 라인의 대표 모델입니다.`,
    ].join('\n'),
    ['1. 소재 및 구성', material ? `주요 소재는 ${material}입니다.` : '소재 정보는 아래 사양표를 따릅니다.', '사양표:', attributes].join(
      '\n',
    ),
    [
      '2. 사이즈 및 규격',
      valueOf(g, 'SIZE')
        ? `표기 사이즈: ${valueOf(g, 'SIZE')}`
        : valueOf(g, 'DIMENSION')
          ? `크기: ${valueOf(g, 'DIMENSION')}`
          : `용량/중량: ${valueOf(g, 'CAPACITY') ?? valueOf(g, 'WEIGHT') ?? '제품 표기 참조'}`,
      traits.sizeNote,
    ].join('\n'),
    [
      '3. 세탁 및 관리 방법 / 주의사항',
      ...random.shuffle([...traits.care]).slice(0, 3),
      `품질보증기준: 관련 법 및 소비자분쟁해결기준에 따릅니다. A/S 문의: ${r.salemn_nm ?? brand}`,
    ].join('\n'),
  ];
  return pages.slice(0, random.int(2, 4));
}

function manual(g: GeneratedGoods): string[] {
  const traits = PROFILE_TRAITS[g.leaf.profile];
  return [
    [`사용 설명서 - ${g.row.goods_nm}`, '제품을 사용하기 전에 이 설명서를 읽고 보관하세요.', `구성품: 본품 1개, 설명서 1부`].join('\n'),
    ['안전을 위한 주의사항', ...traits.care].join('\n'),
  ];
}

/**
 * Attached documents for part of the goods: a spec sheet (`GD0001_spec.pdf`, 2–4 pages on
 * materials, sizes and care) for about a third, a manual as well for some. The first goods
 * always has both, so any data set has a document to cite.
 */
export async function generateDocPages(plan: Plan, goods: readonly GeneratedGoods[], sink: RowSink): Promise<number> {
  const random = createRandom(plan.seed).fork(43);
  let pages = 0;
  for (let i = 0; i < goods.length; i++) {
    const g = goods[i]!;
    if (i > 0 && !random.chance(0.3)) continue;
    const files: [string, string[]][] = [[`${g.row.goods_no}_spec.pdf`, specSheet(g, random)]];
    if (i === 0 || random.chance(0.3)) files.push([`${g.row.goods_no}_manual.pdf`, manual(g)]);
    for (const [file, texts] of files) {
      for (let p = 0; p < texts.length; p++) {
        const w = sink.write(`${g.row.goods_no}\t${file}\t${p + 1}\t${tsv(texts[p]!)}\n`);
        pages++;
        if (w) await w;
      }
    }
  }
  return pages;
}
