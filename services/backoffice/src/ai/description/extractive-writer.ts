import { josa } from 'es-hangul';
import type { DescDraft, DescPage, DescRequest } from '../provider/types.ts';
import { CharNgramEmbeddings, cosine } from '../retrieval/char-ngram-embeddings.ts';
import { charNgrams } from '../text/char-ngrams.ts';
import { sentencesOf } from './sentences.ts';

interface Scored {
  text: string;
  page: DescPage;
  score: number;
}

/** Topics a FAQ can answer from a spec sheet: the words that show a sentence is about it. */
const FAQ_TOPICS: readonly { question: string; keys: RegExp }[] = [
  { question: '소재(재질)는 무엇인가요?', keys: /소재|재질|원단|혼용|면\s?\d|가죽|스테인리스|폴리|나일론/ },
  { question: '사이즈(크기)는 어떻게 되나요?', keys: /사이즈|치수|크기|\d\s?(cm|mm)|가로|세로|높이/ },
  { question: '용량이나 무게는 어떻게 되나요?', keys: /용량|중량|무게|\d\s?(ml|l|g|kg)\b/i },
  { question: '세탁·관리는 어떻게 하나요?', keys: /세탁|관리|보관|손세탁|드라이|건조|세척/ },
  { question: '어떻게 사용하나요?', keys: /사용\s?방법|사용법|사용\s?시|설치|조립|충전/ },
  { question: '구성품은 무엇인가요?', keys: /구성|포함|구성품|세트/ },
  { question: '품질보증·A/S는 어떻게 되나요?', keys: /보증|a\/s|as\s|수리|무상|교환/i },
  { question: '주의할 점이 있나요?', keys: /주의|경고|금지|삼가|피해/ },
];

/** Sentences that state features (materials, measures, functions) make better selling points. */
const FEATURE =
  /기능|기술|소재|원단|적용|탑재|지원|방수|보온|통기|경량|내구|인증|특허|친환경|사이즈|세탁|용량|\d+(\.\d+)?\s?(%|cm|mm|ml|l|g|kg|w|인용|gb|tb|인치)(?![a-z])/i;

/** `상품명: …`, `제조사 : …`: a label line of a spec table, not a sentence a person would write as a selling point. */
const LABEL_LINE = /^[^\s:：]{1,10}(\s[^\s:：]{1,10})?\s*[:：]/;
/** Shop boilerplate (shipping, returns, customer service) says nothing about the goods. */
const BOILERPLATE = /배송|출고|교환|반품|환불|고객센터|문의하|판매자|결제|쿠폰|적립/;

const truncate = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** Drop sentences that mostly repeat one already taken. */
function distinct(sentences: Scored[], limit: number): Scored[] {
  const taken: { s: Scored; grams: Set<string> }[] = [];
  for (const s of sentences) {
    const grams = new Set(charNgrams(s.text, [3]));
    const repeats = taken.some((t) => {
      let shared = 0;
      for (const g of grams) if (t.grams.has(g)) shared++;
      return grams.size > 0 && shared / grams.size > 0.7;
    });
    if (!repeats) taken.push({ s, grams });
    if (taken.length >= limit) break;
  }
  return taken.map((t) => t.s);
}

/**
 * The offline provider's writer: extractive. It ranks the sentences of the retrieved pages by
 * similarity to the request (goods name, option, additional text as search terms only) and
 * builds the option's output from those sentences verbatim, plus facts from the goods row.
 * It never follows instructions found in the pages or the additional text: they are only
 * ranked and quoted.
 */
export function writeExtractive(request: DescRequest): DescDraft {
  const all: Scored[] = [];
  const pool = request.pages.flatMap((page) => sentencesOf(page.text).map((text) => ({ text, page })));
  const embeddings = new CharNgramEmbeddings(pool.map((p) => p.text));
  const q = embeddings.sparse(request.query);
  for (const { text, page } of pool) {
    if (LABEL_LINE.test(text) || BOILERPLATE.test(text)) continue;
    const similarity = cosine(q, embeddings.sparse(text));
    const feature = FEATURE.test(text);
    // A sentence that neither resembles the request nor states a feature (a shipping notice) is left out.
    if (similarity === 0 && !feature) continue;
    const rank = request.pages.indexOf(page);
    all.push({ text, page, score: similarity + (feature ? 0.1 : 0) - rank * 0.01 });
  }
  all.sort((a, b) => b.score - a.score);
  const g = request.goods;
  const leaf = g.hierarchy?.split(' > ').at(-1);
  const intro = `${josa(g.goodsNm, '은/는')} ${[g.brandNm && `${g.brandNm}의`, leaf ?? '상품'].filter(Boolean).join(' ')}입니다.`;
  const used = (items: Scored[]) => [...new Set(items.map((s) => s.page.id))];

  switch (request.kind) {
    case 'selling-points': {
      const points = distinct(all.filter((s) => FEATURE.test(s.text)).concat(all.filter((s) => !FEATURE.test(s.text))), 5);
      const facts = points.length ? [] : [intro, ...specFacts(request)];
      return { content: [...points.map((p) => truncate(p.text, 300)), ...facts].slice(0, 7), sources: used(points) };
    }
    case 'seo-meta': {
      const top = distinct(all, 2);
      const description = truncate(top.length ? top.map((s) => s.text).join(' ') : intro, 300);
      const keywords = [
        ...new Set(
          [g.brandNm, ...(g.hierarchy?.split(' > ').reverse() ?? []), g.modlNm, ...g.goodsNm.split(/\s+/)].filter(
            (k): k is string => !!k && k.length >= 2 && k.length <= 50,
          ),
        ),
      ].slice(0, 15);
      return {
        content: {
          title: truncate(g.brandNm && !g.goodsNm.includes(g.brandNm) ? `${g.brandNm} ${g.goodsNm}` : g.goodsNm, 80),
          description,
          keywords,
        },
        sources: used(top),
      };
    }
    case 'faq': {
      const items: { question: string; answer: string }[] = [];
      const sources: Scored[] = [];
      for (const topic of FAQ_TOPICS) {
        const answer = all.find((s) => topic.keys.test(s.text) && !sources.includes(s));
        if (!answer) continue;
        items.push({ question: topic.question, answer: truncate(answer.text, 1000) });
        sources.push(answer);
        if (items.length >= 6) break;
      }
      if (items.length === 0) items.push({ question: '어떤 상품인가요?', answer: intro });
      return { content: items, sources: used(sources) };
    }
    default: {
      const body = distinct(all, 6);
      const lines = [intro, ...specFacts(request), ...body.map((s) => s.text)];
      return { content: truncate(lines.join('\n'), 5000), sources: used(body) };
    }
  }
}

/** Facts of the goods row itself, written as sentences (no document needed, so nothing to cite). */
function specFacts(request: DescRequest): string[] {
  const g = request.goods;
  return [
    g.modlNm && `모델명은 ${g.modlNm}입니다.`,
    g.mfcoNm && `제조사는 ${g.mfcoNm}입니다.`,
    g.homeNm && `원산지는 ${g.homeNm}입니다.`,
  ].filter((s): s is string => !!s);
}
