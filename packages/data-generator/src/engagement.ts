import { DEMO_CODES } from '@bo/contracts';
import { addDays } from '@bo/db';
import type { GeneratedGoods } from './goods.ts';
import { SITES } from './masters.ts';
import { memberNumber } from './members.ts';
import { lastSecondOfLastDay, type Plan } from './plan.ts';
import { createRandom, cumulative, drawCumulative, type Random } from './random.ts';
import { tsv, type RowSink } from './row-sink.ts';
import { drawSecond, hms, SHOPPING_HOURS } from './time-of-day.ts';

export const REVIEW_COLUMNS = [
  'rev_no',
  'goods_no',
  'site_no',
  'mbr_no',
  'star_score',
  'rev_cont',
  'reg_dtm',
  'del_yn',
  'rev_disp_stat_cd',
] as const;
export const RESTOCK_COLUMNS = ['req_no', 'goods_no', 'site_no', 'mbr_no', 'req_dtm', 'noti_yn'] as const;
export const QNA_COLUMNS = [
  'quest_no',
  'site_no',
  'mbr_no',
  'goods_no',
  'entr_no',
  'quest_typ_cd',
  'quest_title',
  'quest_cont',
  'quest_dtm',
  'proc_stat_cd',
  'proc_stat_dtm',
] as const;

const REVIEW_TEXT: Record<number, readonly string[]> = {
  5: [
    '정말 만족합니다. 재구매 의사 있어요!',
    '배송도 빠르고 품질이 기대 이상이에요.',
    '가격 대비 최고입니다. 주변에도 추천했어요.',
    '색상이 사진과 똑같고 마감도 훌륭해요.',
  ],
  4: ['전반적으로 만족해요. 배송이 조금 늦었어요.', '품질은 좋은데 포장이 아쉬웠어요.', '생각보다 괜찮아요. 잘 쓰고 있습니다.'],
  3: ['보통이에요. 가격만큼 하는 것 같아요.', '사진과 약간 달라요. 쓸만은 합니다.', '무난합니다.'],
  2: ['기대보다 별로예요. 마감이 아쉬워요.', '사이즈가 잘 안 맞네요. 교환하려고요.', '배송 중 상자가 찌그러져 왔어요.'],
  1: ['불량품이 왔어요. 반품 요청했습니다.', '설명과 전혀 달라요. 실망입니다.', '한 번 쓰고 고장 났어요.'],
};
const STAR_WEIGHTS = [5, 7, 15, 30, 43];
const DISPLAY_STATES = ['20', '10', '30'];
const DISPLAY_WEIGHTS = [85, 10, 5];

const QNA_TEXT: Record<string, readonly (readonly [string, string])[]> = {
  '10': [
    ['사이즈 문의', '평소 M 사이즈를 입는데 어떤 사이즈가 맞을까요?'],
    ['소재 문의', '세탁기 사용이 가능한 소재인가요?'],
    ['정품 여부', '정품 맞나요? 보증서가 동봉되나요?'],
    ['구성품 문의', '구성품에 충전기가 포함되어 있나요?'],
  ],
  '20': [
    ['배송 언제 되나요?', '주문한 지 3일이 지났는데 아직 출고 전이에요.'],
    ['도서산간 배송', '제주도도 배송 가능한가요? 추가 배송비가 있나요?'],
    ['묶음 배송', '다른 상품과 묶음 배송 되나요?'],
  ],
  '30': [
    ['교환 요청', '사이즈가 작아서 교환하고 싶어요.'],
    ['반품 문의', '단순 변심 반품 시 배송비는 얼마인가요?'],
    ['불량 교환', '받은 제품에 흠집이 있어 교환 요청드립니다.'],
  ],
  '40': [
    ['재입고 문의', '품절된 색상은 언제 재입고되나요?'],
    ['대량 구매', '회사 단체 구매 시 할인이 가능한가요?'],
  ],
};

interface TimedLine {
  day: number;
  sec: number;
  text: string;
}

/** Writes lines in time order with consecutive numbers, as the platform's sequences would. */
async function writeInTimeOrder(sink: RowSink, lines: TimedLine[], start: string): Promise<void> {
  lines.sort((a, b) => a.day - b.day || a.sec - b.sec);
  let no = 1;
  for (const l of lines) {
    const w = sink.write(`${no++}\t${l.text.replace('@DTM@', `${addDays(start, l.day)} ${hms(l.sec)}`)}\n`);
    if (w) await w;
  }
}

function periodClock(plan: Plan) {
  const last = lastSecondOfLastDay(plan);
  /** A second of `day`, kept before "now" on the last day. */
  return (day: number, sec: number) => (day === plan.days - 1 ? Math.min(sec, last) : sec);
}

/**
 * Reviews: ratings 1–5, some deleted or not display-processed, a good share in the last 7
 * days. The first ones cover each state the dashboard distinguishes.
 */
export async function generateReviews(plan: Plan, goods: readonly GeneratedGoods[], orders: number, sink: RowSink): Promise<number> {
  const random = createRandom(plan.seed).fork(40);
  const clamp = periodClock(plan);
  const sellable = goods.filter((g) => g.sellableFrom !== Infinity);
  const cdf = cumulative(sellable.map((g) => g.popularity));
  const siteCdf = cumulative([45, 45, 10]);
  const recentFrom = Math.max(0, plan.days - 7);
  const count = Math.max(40, Math.round(orders * 0.03));
  // [star, del_yn, display state, recent]
  const coverage: readonly (readonly [number, string, string, boolean])[] = [
    [5, 'N', '20', true],
    [4, 'N', '20', true],
    [3, 'N', '20', true],
    [2, 'N', '20', true],
    [1, 'N', '20', true],
    [5, 'Y', '20', true],
    [4, 'N', '10', true],
    [1, 'N', '30', true],
    [5, 'N', '20', false],
    [2, 'N', '20', false],
  ];
  const lines: TimedLine[] = [];
  for (let i = 0; i < count; i++) {
    const g = sellable[drawCumulative(cdf, random.next())]!;
    const fixed = coverage[i];
    const star = fixed ? fixed[0] : 1 + random.weighted(STAR_WEIGHTS);
    const del = fixed ? fixed[1] : random.chance(0.04) ? 'Y' : 'N';
    const disp = fixed ? fixed[2] : DISPLAY_STATES[random.weighted(DISPLAY_WEIGHTS)]!;
    const recent = fixed ? fixed[3] : random.chance(0.35);
    const from = Math.min(Math.max(0, g.sellableFrom), plan.days - 1);
    const day = recent ? Math.max(from, random.int(recentFrom, plan.days - 1)) : fixed ? 0 : random.int(from, plan.days - 1);
    const sec = clamp(day, drawSecond(SHOPPING_HOURS, random.next));
    const site = SITES[drawCumulative(siteCdf, random.next())]!.site_no;
    const mbr = memberNumber(random.int(1, plan.members));
    const text = `${g.leaf.leafName} ${random.pick(REVIEW_TEXT[star]!)}`;
    lines.push({ day, sec, text: `${g.row.goods_no}\t${site}\t${mbr}\t${star}\t${tsv(text)}\t@DTM@\t${del}\t${disp}` });
  }
  await writeInTimeOrder(sink, lines, plan.start);
  return count;
}

/**
 * Restock notice requests: sold-out goods mostly still waiting (`N`), low-stock goods mixed,
 * and some goods back on sale whose requesters were notified (`Y`).
 */
export async function generateRestockRequests(plan: Plan, goods: readonly GeneratedGoods[], sink: RowSink): Promise<number> {
  const random = createRandom(plan.seed).fork(41);
  const clamp = periodClock(plan);
  const lines: TimedLine[] = [];
  goods.forEach((g, index) => {
    const s = g.dashboardStatus;
    const wanted = s === '20' || s === '00' || (s === '10' && (index === 0 || random.chance(0.2)));
    if (!wanted) return;
    const n = random.int(1, 6);
    for (let i = 0; i < n; i++) {
      const waiting = s === '20' ? i === 0 || random.chance(0.8) : s === '00' ? i === 0 || random.chance(0.5) : false;
      const day = random.int(0, plan.days - 1);
      const sec = clamp(day, drawSecond(SHOPPING_HOURS, random.next));
      const site = SITES[random.weighted([45, 45, 10])]!.site_no;
      lines.push({
        day,
        sec,
        text: `${g.row.goods_no}\t${site}\t${memberNumber(random.int(1, plan.members))}\t@DTM@\t${waiting ? 'N' : 'Y'}`,
      });
    }
  });
  await writeInTimeOrder(sink, lines, plan.start);
  return lines.length;
}

function answerTime(plan: Plan, day: number, sec: number, random: Random): { day: number; sec: number } | null {
  const later = sec + random.int(30 * 60, 48 * 3600);
  const answer = { day: day + Math.floor(later / 86_400), sec: later % 86_400 };
  return answer.day > plan.days - 1 ? null : answer;
}

/** Goods questions: recent ones mostly awaiting an answer (`10`), older ones answered (`20`). */
export async function generateQuestions(plan: Plan, goods: readonly GeneratedGoods[], sink: RowSink): Promise<number> {
  const random = createRandom(plan.seed).fork(42);
  const clamp = periodClock(plan);
  const shown = goods.filter((g) => g.row.disp_yn === 'Y');
  const cdf = cumulative(shown.map((g) => Math.sqrt(g.popularity)));
  const types = Object.keys(DEMO_CODES.QNA_TYP!);
  const count = Math.max(20, Math.round(plan.goods * 0.5));
  const lines: TimedLine[] = [];
  for (let i = 0; i < count; i++) {
    const g = shown[drawCumulative(cdf, random.next())]!;
    const typ = random.pick(types);
    const [title, cont] = random.pick(QNA_TEXT[typ] ?? QNA_TEXT['40']!);
    // Skewed to the end of the period: questions pile up recently. The first two cover an
    // awaiting and an answered question.
    const day =
      i === 0
        ? plan.days - 1
        : i === 1
          ? Math.max(0, plan.days - 3)
          : Math.min(plan.days - 1, Math.floor(plan.days * Math.sqrt(random.next())));
    const sec = clamp(day, drawSecond(SHOPPING_HOURS, random.next));
    const recent = day >= plan.days - 3;
    const answered = i === 0 ? false : i === 1 ? true : !random.chance(recent ? 0.6 : 0.08);
    let done = answered ? answerTime(plan, day, sec, random) : null;
    // An answer that would come after "now" has not happened yet.
    if (done && clamp(done.day, done.sec) !== done.sec) done = null;
    if (!done && i === 1) done = { day, sec };
    const site = SITES[random.weighted([45, 45, 10])]!.site_no;
    const procDtm = done ? `${addDays(plan.start, done.day)} ${hms(done.sec)}` : '\\N';
    lines.push({
      day,
      sec,
      text: `${site}\t${memberNumber(random.int(1, plan.members))}\t${g.row.goods_no}\t${g.row.entr_no}\t${typ}\t${tsv(title)}\t${tsv(`[${g.row.goods_nm}] ${cont}`)}\t@DTM@\t${done ? '20' : '10'}\t${procDtm}`,
    });
  }
  await writeInTimeOrder(sink, lines, plan.start);
  return count;
}
