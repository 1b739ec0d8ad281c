import type { GeneratedGoods } from './goods.ts';
import type { Plan } from './plan.ts';
import { createRandom } from './random.ts';

export interface DispCtgGoodsRow {
  disp_ctg_no: string;
  goods_no: string;
}
export interface MkdpRow {
  mkdp_no: string;
  mkdp_nm: string;
  bref_desc: string | null;
  intro_conts: string | null;
}
export interface MkdpDivobjGoodsRow {
  mkdp_no: string;
  divobj_nm: string;
  goods_no: string;
}

export interface DisplayRows {
  disp_ctg_goods: DispCtgGoodsRow[];
  mkdp: MkdpRow[];
  mkdp_divobj_goods: MkdpDivobjGoodsRow[];
}

const THEMES = { BEST: 'D9001', NEW: 'D9002', DEAL: 'D9003' } as const;

/** Promotions: name, brief, introduction, the category root they feature. */
const PROMOTIONS: readonly (readonly [string, string, string, number])[] = [
  ['여름 시즌오프 최대 70%', '시즌오프 인기 의류 특가', '올여름 가장 많이 팔린 티셔츠와 반바지를 시즌오프 가격으로 만나보세요.', 0],
  ['가을 아우터 페스타', '트렌치코트부터 경량패딩까지', '환절기 필수 아우터를 한자리에 모았습니다. 쿠폰 적용 시 추가 10% 할인.', 0],
  ['운동화 브랜드 위크', '나이키·아디다스·뉴발란스 인기 모델', '러닝화와 스니커즈 인기 모델을 브랜드별로 비교해 보세요.', 1],
  ['뷰티 위크: 수분 집중 케어', '건조한 피부를 위한 스킨케어', '수분크림, 에센스, 토너패드까지 피부 고민별 추천 상품을 소개합니다.', 2],
  ['명절 선물세트 기획전', '정육·과일·건강식품 선물세트', '부모님과 지인을 위한 명절 선물세트를 미리 준비하세요. 무료배송 혜택.', 3],
  ['홈카페 가전 기획전', '커피머신과 주방가전 특가', '집에서 즐기는 카페 한 잔. 캡슐 커피머신과 그라인더를 특가로 만나보세요.', 4],
  ['신학기 디지털 세일', '노트북·태블릿·주변기기', '새 학기를 위한 노트북과 태블릿, 키보드와 마우스를 함께 준비하세요.', 5],
  ['우리집 인테리어 제안', '침실·거실 가구 모음', '계절에 맞춰 침구와 조명을 바꾸고 공간을 새롭게 꾸며 보세요.', 6],
  ['반려동물 용품 모음전', '사료부터 캣타워까지', '강아지와 고양이를 위한 사료, 간식, 용품을 한 번에 준비하세요.', 7],
  ['캠핑 시즌 특가전', '텐트·캠핑가구·조리용품', '주말 캠핑을 위한 장비를 합리적인 가격에 준비하세요.', 8],
  ['육아 필수템 기획전', '기저귀·물티슈·유아용품', '매일 쓰는 육아 필수템을 대용량으로 저렴하게 만나보세요.', 9],
  ['골프 라운딩 준비전', '클럽부터 골프웨어까지', '라운딩에 필요한 골프공, 장갑, 골프웨어를 한 번에 준비하세요.', 8],
];
const DIVIDERS = ['베스트', '신상품', '단독특가', 'MD 추천'];

/** Display categories (by category group plus best/new/deal themes) and promotions. */
export function buildDisplay(plan: Plan, goods: readonly GeneratedGoods[]): DisplayRows {
  const random = createRandom(plan.seed).fork(44);
  const shown = goods.filter((g) => g.row.disp_yn === 'Y');
  const disp_ctg_goods: DispCtgGoodsRow[] = [];
  const recent = `${plan.start} 00:00:00`;
  for (const g of shown) {
    disp_ctg_goods.push({ disp_ctg_no: `D${g.row.std_ctg_no.slice(0, 4)}`, goods_no: g.row.goods_no });
    if (g.popularity > 0.05) disp_ctg_goods.push({ disp_ctg_no: THEMES.BEST, goods_no: g.row.goods_no });
    if (g.row.goods_reg_dtm >= recent) disp_ctg_goods.push({ disp_ctg_no: THEMES.NEW, goods_no: g.row.goods_no });
    if (random.chance(0.03)) disp_ctg_goods.push({ disp_ctg_no: THEMES.DEAL, goods_no: g.row.goods_no });
  }
  const mkdp: MkdpRow[] = [];
  const mkdp_divobj_goods: MkdpDivobjGoodsRow[] = [];
  PROMOTIONS.forEach(([name, brief, intro, root], i) => {
    const mkdp_no = `MK${String(i + 1).padStart(4, '0')}`;
    mkdp.push({ mkdp_no, mkdp_nm: name, bref_desc: i % 5 === 4 ? null : brief, intro_conts: i % 7 === 6 ? null : intro });
    const pool = random.shuffle(shown.filter((g) => g.leaf.rootIndex === root));
    let taken = 0;
    for (const divobj_nm of DIVIDERS.slice(0, random.int(2, 4))) {
      const n = random.int(5, 15);
      for (const g of pool.slice(taken, taken + n)) mkdp_divobj_goods.push({ mkdp_no, divobj_nm, goods_no: g.row.goods_no });
      taken += n;
    }
  });
  return { disp_ctg_goods, mkdp, mkdp_divobj_goods };
}
