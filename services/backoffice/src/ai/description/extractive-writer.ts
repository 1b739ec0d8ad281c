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

/**
 * Topics a FAQ can answer from a spec sheet. A sentence answers a topic only when it names the
 * topic's subject (`subject`, matched so that a word merely containing it does not count:
 * 건조한 피부, 드라이어, 충전재, 자외선 피해 are not about washing, use or caution) and carries
 * evidence of an answer (`evidence`: a material, a measure with its unit, a care instruction,
 * a period of warranty…). A heading such as `사이즈 정보 (단위: cm)` names the subject but
 * answers nothing, and a topic without such a sentence is left out of the FAQ.
 */
interface FaqTopic {
  question: string;
  subject: RegExp;
  evidence: RegExp;
}

const MATERIALS =
  /(?:^|[\s(,/])면(?=\s?\d|\s?혼방|\s|$)|순면|코튼|폴리에스(?:터|테르)|나일론|(?<![가-힣])울(?=\s?\d|\s|$)|캐시미어|린넨|레이온|모달|스판(?:덱스)?|아크릴|가죽|스웨이드|스테인리스|알루미늄|실리콘|원목|세라믹|강화유리|플라스틱|구스다운|덕다운|솜털|깃털|캔버스|canvas|데님|\d+\s?%/i;
const INSTRUCTION =
  /하세요|해\s?주세요|하십시오|하지\s?마|마세요|마십시오|삼가|피해\s?주세요|피하(?:세요|시고|고)|권장|가능합니다|불가|금지|전용/;

const FAQ_TOPICS: readonly FaqTopic[] = [
  {
    question: '소재(재질)는 무엇인가요?',
    subject: /소재|재질|원단|겉감|안감|충전재|혼용/,
    evidence: MATERIALS,
  },
  {
    question: '사이즈(크기)는 어떻게 되나요?',
    subject: /사이즈|치수|크기|실측|총장|가슴\s?단면|어깨\s?너비|허리\s?단면|발볼|가로|세로|지름|길이/,
    evidence:
      /\d+(?:\.\d+)?\s?(?:cm|mm|m|인치|호)(?![a-z])|(?<![A-Za-z])(?:XS|S|M|L|XL|XXL|FREE)(?![A-Za-z])|정사이즈|반\s?치수|한\s?치수|크게|작게|넉넉/i,
  },
  {
    question: '용량이나 무게는 어떻게 되나요?',
    subject: /용량|중량|무게|\d\s?(?:ml|l|g|kg)(?![a-z])/i,
    evidence: /\d+(?:\.\d+)?\s?(?:ml|l|g|kg|mah|리터|그램)(?![a-z])/i,
  },
  {
    question: '세탁·관리는 어떻게 하나요?',
    subject: /세탁|세척|손빨래|드라이\s?클리닝|건조기|건조(?=하세요|해\s?주|시\s)|표백|다림질|보관/,
    evidence: new RegExp(`${INSTRUCTION.source}|손세탁|물세탁|드라이\\s?클리닝|세탁망|울\\s?코스|중성세제`),
  },
  {
    question: '어떻게 사용하나요?',
    subject: /사용\s?방법|사용법|사용\s?(?:시|전|후)|사용(?:하|해)|설치|조립|충전(?!재)|바르|발라/,
    evidence: /하세요|해\s?주세요|하십시오|하면|단계|순서|버튼|누르|눌러|\d\s?(?:시간|분|회|번)/,
  },
  {
    question: '구성품은 무엇인가요?',
    subject: /구성품|구성(?:은|:)|세트\s?구성|동봉|들어\s?있/,
    evidence: /\d\s?(?:개|종|매|입|ea|pcs)(?![a-z])|\+|,|및/i,
  },
  {
    question: '품질보증·A/S는 어떻게 되나요?',
    subject: /보증|(?<![a-z])a\/?s(?![a-z])|수리/i,
    evidence: /\d\s?(?:년|개월|일)|무상|유상|센터|기준/,
  },
  {
    question: '주의할 점이 있나요?',
    subject: /주의|경고|금지|삼가|피해\s?주|피하(?:세요|시|고|십시오)|마세요|마십시오|않도록/,
    evidence: /./,
  },
];

/** Whether a sentence answers the topic's question: its subject named and an answer's evidence in it. */
export const answersTopic = (topic: FaqTopic, text: string): boolean => topic.subject.test(text) && topic.evidence.test(text);

/** `소재 : 면 100%` → label `소재`, value `면 100%` (labels of one or two short words, as LABEL_LINE). */
const LABEL_PARTS = /^([^\s:：]{1,10}(?:\s[^\s:：]{1,10})?)\s*[:：]\s*(.+)$/;

/**
 * A label line of a spec table whose label names the topic, written as a sentence with the
 * particle chosen by the label's last syllable: `세탁방법 : 찬물 손세탁` → `세탁방법은 찬물 손세탁입니다.`
 */
function labelAnswer(topic: FaqTopic, line: string): string | undefined {
  const m = LABEL_PARTS.exec(line);
  if (!m) return undefined;
  const label = m[1]!.trim();
  const value = m[2]!.trim().replace(/[.。]+$/, '');
  if (!topic.subject.test(label) || !value || !topic.evidence.test(value)) return undefined;
  const closed = /(다|요)$/.test(value);
  return `${josa(label, '은/는')} ${value}${closed ? '.' : '입니다.'}`;
}

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
  /** Sentences that share nothing with the request and state no feature: only a FAQ topic may still use them. */
  const unranked: Scored[] = [];
  /** Label lines (`소재 : 면 100%`): never quoted, only rewritten as a FAQ answer. */
  const labels: Scored[] = [];
  for (const { text, page } of pool) {
    const rank = request.pages.indexOf(page);
    if (BOILERPLATE.test(text)) continue;
    if (LABEL_LINE.test(text)) {
      labels.push({ text, page, score: -rank });
      continue;
    }
    const similarity = cosine(q, embeddings.sparse(text));
    const feature = FEATURE.test(text);
    // A sentence that neither resembles the request nor states a feature (a shipping notice) is left out.
    if (similarity === 0 && !feature) {
      unranked.push({ text, page, score: -rank });
      continue;
    }
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
      // Every sentence may answer (not only those resembling the request), label lines too; the topic decides.
      const candidates = [...all, ...unranked];
      const items: { question: string; answer: string }[] = [];
      const sources: Scored[] = [];
      for (const topic of FAQ_TOPICS) {
        const sentence = candidates.find((s) => !sources.includes(s) && answersTopic(topic, s.text));
        const label = sentence
          ? undefined
          : labels.map((s) => ({ s, text: labelAnswer(topic, s.text) })).find((l) => l.text && !sources.includes(l.s));
        const answer = sentence ? { s: sentence, text: sentence.text } : label ? { s: label.s, text: label.text! } : undefined;
        if (!answer) continue;
        items.push({ question: topic.question, answer: truncate(answer.text, 1000) });
        sources.push(answer.s);
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
