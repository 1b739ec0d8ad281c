import { josa } from 'es-hangul';
import { jamoSimilarity, toJamo } from '../text/hangul-distance.ts';
import { normaliseText } from '../text/normalise.ts';
import { brandWordsGlued, choseongOf, compatWordNear, isChoseongWord, keyboardReadings, KNOWN_SUFFIXES } from './brand-spellings.ts';
import { isAttributeWord } from './name-facts.ts';

export type BrandMatchStatus = 'EXACT' | 'ALIAS' | 'FUZZY' | 'AMBIGUOUS' | 'NOT_FOUND';
export type BrandConfidence = 'HIGH' | 'MEDIUM' | 'LOW';

export interface BrandMaster {
  brandNo: string;
  brandNm: string;
  brandEngNm: string | null;
  aliases: readonly string[];
}

export interface BrandMatch {
  brandNo?: string;
  brandNm?: string;
  status: BrandMatchStatus;
  confidence: BrandConfidence;
  reason: string;
  /** The normalised text in the product name that named the brand (removed before category scoring). */
  matchedText?: string;
}

interface BrandKey {
  key: string;
  /** The key as jamo, computed once for fuzzy matching. */
  jamo: string;
  brand: BrandMaster;
  /** name: the brand's own Korean or English name; alias: brand_alias. */
  kind: 'name' | 'alias';
  written: string;
}

interface Hit {
  key: BrandKey;
  /** Word position of the hit: earlier wins a tie, the brand usually leads a product name. */
  position: number;
  /** Words the hit covers (for the compatibility check after it). */
  end: number;
  similarity: number;
  /** Order of preference among hits (the similarity, or for fuzzy hits also the word coverage). */
  rank: number;
}

/** What the matcher knows of the brands' own goods, to tell a glued product word from another word. */
export interface BrandVocabulary {
  /** Words of the brand's goods names and leaf names (`참치` for 동원). */
  wordsOf: (brandNo: string) => ReadonlySet<string> | undefined;
  /** True when the key is an ordinary word of other brands' goods names (`베이직`, `클라우드`). */
  isCommonWord: (key: string, brandNo: string) => boolean;
}

const NO_VOCABULARY: BrandVocabulary = { wordsOf: () => undefined, isCommonWord: () => false };

const keyOf = (text: string): string => normaliseText(text).replace(/\s+/g, '');
const isLatin = (s: string): boolean => /^[a-z0-9.&'-]+$/.test(s);
/** Shortest key worth a substring search: one Hangul syllable or two Latin letters match by accident. */
const substringWorthy = (key: string): boolean => key.length >= (isLatin(key) ? 3 : 2);
/** Shortest key worth a fuzzy match: a one-jamo change of a 2–3-syllable brand is usually another word (남성/삼성, 리본/리복). */
const fuzzyWorthy = (key: string): boolean => key.length >= (isLatin(key) ? 6 : 4);
const MAX_SPAN_WORDS = 3;

/**
 * The brand-master matcher cascade, strongest evidence first:
 * 1. a word (or up to three words, `뉴 발란스`) equal to a brand name or alias: HIGH;
 * 2. the same after reading the name's other spellings (English keyboard layout, initial
 *    consonants naming one brand only): MEDIUM;
 * 3. a name or alias at the start of a word whose rest is a known suffix (코리아, 정품, 공식) or
 *    a word of the brand's own goods (`동원참치`): MEDIUM; any other rest (`자라목`, `후지사과`)
 *    makes it a LOW suggestion;
 * 4. a close spelling (jamo edit distance) of a name of 4+ syllables: MEDIUM, of a shorter
 *    one never.
 * A brand followed by a compatibility or negation word (호환, 전용, 스타일, st, 아님), or one
 * whose text is an ordinary word of other goods, is at most a LOW suggestion. A LOW answer never
 * carries `brandNo`. Two brands equally good at the deciding step make it AMBIGUOUS.
 */
export class BrandMatcher {
  private readonly byKey = new Map<string, BrandKey[]>();
  private readonly byChoseong = new Map<string, BrandKey[]>();
  private readonly keys: BrandKey[] = [];

  constructor(
    brands: readonly BrandMaster[],
    private readonly fuzzyMin: number,
    private readonly vocabulary: BrandVocabulary = NO_VOCABULARY,
  ) {
    for (const brand of brands) {
      const written = [
        ...[brand.brandNm, brand.brandEngNm].filter((n): n is string => !!n).map((n) => ({ n, kind: 'name' as const })),
        ...brand.aliases.map((n) => ({ n, kind: 'alias' as const })),
      ];
      const seen = new Set<string>();
      for (const { n, kind } of written) {
        const key = keyOf(n);
        if (!key || seen.has(key)) continue;
        seen.add(key);
        const entry: BrandKey = { key, jamo: toJamo(key), brand, kind, written: n };
        this.keys.push(entry);
        this.byKey.set(key, [...(this.byKey.get(key) ?? []), entry]);
        const initials = choseongOf(key);
        if (initials) this.byChoseong.set(initials, [...(this.byChoseong.get(initials) ?? []), entry]);
      }
    }
    // Longest first, so the substring step meets `닥터마틴` before `마틴`.
    this.keys.sort((a, b) => b.key.length - a.key.length);
  }

  get size(): number {
    return this.keys.length;
  }

  /** Match a product name; a model's brand proposal, when given, is checked against the master first. */
  match(productName: string, proposal?: string): BrandMatch {
    const fromName = this.matchName(productName);
    if (!proposal?.trim()) return fromName;
    const fromProposal = this.matchName(proposal);
    const shown = proposal.trim();
    if (fromProposal.brandNo && fromProposal.status !== 'FUZZY') {
      if (fromName.brandNo === fromProposal.brandNo) return fromName;
      if (!fromName.brandNo && fromName.status === 'NOT_FOUND') {
        return {
          ...fromProposal,
          matchedText: undefined,
          confidence: 'MEDIUM',
          reason: `상품명에 브랜드가 쓰여 있지 않아 모델이 제안한 '${shown}'${josa.pick(shown, '을/를')} 브랜드 마스터에서 확인했습니다: ${fromProposal.brandNm} (${fromProposal.brandNo}).`,
        };
      }
    }
    if (fromName.brandNo) {
      return {
        ...fromName,
        reason: `${fromName.reason} 모델이 제안한 '${shown}'${josa.pick(shown, '은/는')} 상품명과 맞지 않아 쓰지 않았습니다.`,
      };
    }
    return {
      ...fromName,
      reason: `모델이 제안한 '${shown}'${josa.pick(shown, '은/는')} ${fromProposal.brandNo ? '상품명으로 확인되지 않습니다' : '브랜드 마스터에 없습니다'}. ${fromName.reason}`,
    };
  }

  private matchName(productName: string): BrandMatch {
    const glued = brandWordsGlued(productName);
    const ws = glued.map((w) => w.word);
    if (ws.length === 0) return notFound('상품명에 글자가 없습니다.');
    const found = this.wordSpanMatch(ws, glued) ?? this.otherSpellingMatch(productName, ws);
    if (found) return found;
    // A brand glued to an unknown rest (`뉴발` + `란쓰`) is only a suggestion; a close spelling of a longer name beats it.
    const inside = this.gluedMatch(ws);
    if (inside?.brandNo) return inside;
    const fuzzy = this.fuzzyMatch(ws);
    if (fuzzy?.brandNo) return fuzzy;
    return inside ?? fuzzy ?? notFound(`상품명 '${ws.join(' ')}'에서 브랜드 마스터의 브랜드명·별칭과 같거나 비슷한 말을 찾지 못했습니다.`);
  }

  /** A HIGH or MEDIUM match is lowered to a LOW suggestion when the words around it say the goods are not of that brand. */
  private checked(m: BrandMatch, ws: readonly string[], hit: Hit): BrandMatch {
    if (!m.brandNo) return m;
    const compat = compatWordNear(ws, hit.position, hit.end);
    if (compat) {
      return suggestion(
        m,
        `${m.reason} 다만 '${compat}'${josa.pick(compat, '이/가')} 붙어 있어 이 브랜드의 상품이 아니라 호환·유사 상품으로 보고 제안만 합니다.`,
      );
    }
    if (this.vocabulary.isCommonWord(hit.key.key, hit.key.brand.brandNo) && !this.otherSpellingIn(ws, hit)) {
      return suggestion(
        m,
        `${m.reason} 다만 '${hit.key.key}'${josa.pick(hit.key.key, '은/는')} 다른 상품명에도 흔히 쓰이는 말이라 제안만 합니다.`,
      );
    }
    return m;
  }

  /** Whether another spelling of the same brand also appears (`베이직 BASIC`). */
  private otherSpellingIn(ws: readonly string[], hit: Hit): boolean {
    const joined = ws.join('');
    return this.keys.some((k) => k.brand.brandNo === hit.key.brand.brandNo && k.key !== hit.key.key && joined.includes(k.key));
  }

  /** Whole words (or up to three consecutive words) equal to a name or an alias. */
  private wordSpanMatch(ws: string[], glued: readonly { gluedToNext: boolean }[]): BrandMatch | undefined {
    // The earliest word that names a brand wins (the brand leads most names; a later word such
    // as a product line may happen to equal another brand); at that word, the longest span.
    let best: Hit[] = [];
    for (let i = 0; i < ws.length && best.length === 0; i++) {
      let bestLen = 0;
      for (let len = 1; len <= MAX_SPAN_WORDS && i + len <= ws.length; len++) {
        const span = ws.slice(i, i + len).join('');
        const entries = this.byKey.get(span);
        if (entries && span.length > bestLen) {
          best = entries.map((key) => ({ key, position: i, end: i + len, similarity: 1, rank: 1 }));
          bestLen = span.length;
        }
      }
    }
    if (best.length === 0) return undefined;
    const spaced = best[0]!.end - best[0]!.position > 1 ? ' (띄어 쓴 것을 붙여 읽음)' : '';
    // `lg` of `lg생활건강`: a Latin brand glued to a Hangul word is judged like any glued brand.
    const rest = glued[best[0]!.end - 1]?.gluedToNext ? ws[best[0]!.end] : undefined;
    if (rest) return this.decide(ws, best, (hit) => this.gluedRest(hit, ws.slice(hit.position, hit.end).join('') + rest, rest));
    return this.decide(ws, best, (hit) => ({
      status: hit.key.kind === 'name' ? 'EXACT' : 'ALIAS',
      confidence: 'HIGH',
      reason: `상품명의 단어 '${hit.key.key}'${spaced}${josa.pick(hit.key.key, '이/가')} ${describeKey(hit.key)}${josa.pick(hit.key.written, '와/과')} 같습니다.`,
    }));
  }

  /** Korean typed on the English layout (`skdlzl` → 나이키) and initial consonants naming one brand (`ㄴㅇㅋ`). */
  private otherSpellingMatch(productName: string, ws: string[]): BrandMatch | undefined {
    for (const { typed, hangul } of keyboardReadings(productName)) {
      const entries = this.byKey.get(hangul);
      if (!entries) continue;
      const position = Math.max(
        0,
        ws.findIndex((w) => w.startsWith(typed.toLowerCase())),
      );
      const hits = entries.map((key) => ({ key, position, end: position + 1, similarity: 1, rank: 1 }));
      return this.decide(
        ws,
        hits,
        (hit) => ({
          status: hit.key.kind === 'name' ? 'EXACT' : 'ALIAS',
          confidence: 'MEDIUM',
          reason: `영문 자판으로 입력된 '${typed}'${josa.pick(typed, '을/를')} 한글 '${hangul}'${josa.pick(hangul, '으로/로')} 읽으면 ${describeKey(hit.key)}${josa.pick(hit.key.written, '와/과')} 같습니다.`,
        }),
        typed.toLowerCase(),
      );
    }
    for (let i = 0; i < ws.length; i++) {
      if (!isChoseongWord(ws[i]!)) continue;
      const entries = this.byChoseong.get(ws[i]!.normalize('NFKC'));
      if (!entries) continue;
      const hits = entries.map((key) => ({ key, position: i, end: i + 1, similarity: 1, rank: 1 }));
      return this.decide(
        ws,
        hits,
        (hit) => ({
          status: hit.key.kind === 'name' ? 'EXACT' : 'ALIAS',
          confidence: 'MEDIUM',
          reason: `초성 '${ws[i]!.normalize('NFKC')}'에 맞는 브랜드는 ${describeKey(hit.key)} 하나뿐입니다.`,
        }),
        ws[i],
      );
    }
    return undefined;
  }

  /** A name or alias at the start of a longer word (`나이키정품`, `동원참치`, but not `자라목`). */
  private gluedMatch(ws: string[]): BrandMatch | undefined {
    for (let i = 0; i < ws.length; i++) {
      const word = ws[i]!;
      const hits: Hit[] = [];
      for (const key of this.keys) {
        if (hits.length && key.key.length < hits[0]!.key.key.length) break;
        if (!substringWorthy(key.key) || word.length <= key.key.length || !word.startsWith(key.key)) continue;
        hits.push({ key, position: i, end: i + 1, similarity: 1, rank: 1 });
      }
      if (hits.length === 0) continue;
      return this.decide(ws, hits, (hit) => this.gluedRest(hit, word, word.slice(hit.key.key.length)));
    }
    return undefined;
  }

  /** A brand glued to the rest of its word: kept when the rest is a known suffix or a word of the brand's goods. */
  private gluedRest(hit: Hit, word: string, rest: string): Pick<BrandMatch, 'status' | 'confidence' | 'reason'> {
    const status = hit.key.kind === 'name' ? 'EXACT' : 'ALIAS';
    const what = `'${word}'의 앞부분이 ${describeKey(hit.key)}${josa.pick(hit.key.written, '와/과')} 같고`;
    if (KNOWN_SUFFIXES.includes(rest)) return { status, confidence: 'MEDIUM', reason: `${what} 뒤는 '${rest}'입니다.` };
    const own = this.vocabulary.wordsOf(hit.key.brand.brandNo);
    const ownWord = [...(own ?? [])].find(
      (w) => w === rest || (rest.length >= 2 && w.length >= 2 && (w.includes(rest) || rest.startsWith(w))),
    );
    if (ownWord) {
      return {
        status,
        confidence: 'MEDIUM',
        reason: `${what} 뒤의 '${rest}'${josa.pick(rest, '은/는')} 이 브랜드 상품명에 쓰이는 말('${ownWord}')입니다.`,
      };
    }
    return {
      status,
      confidence: 'LOW',
      reason: `${what} 뒤에 '${rest}'${josa.pick(rest, '이/가')} 이어져 다른 낱말일 수 있으므로 제안만 합니다.`,
    };
  }

  /** Close spellings of longer names (`아디다쓰` ≈ `아디다스`), compared on jamo. */
  private fuzzyMatch(ws: string[]): BrandMatch | undefined {
    const spans: { text: string; position: number; end: number }[] = [];
    for (let i = 0; i < ws.length; i++) {
      // Colour, material and similar words are attributes, however close they look to a brand (베이지 ≈ 베이직).
      if (isAttributeWord(ws[i]!)) continue;
      spans.push({ text: ws[i]!, position: i, end: i + 1 });
      if (i + 1 < ws.length && !isAttributeWord(ws[i + 1]!)) spans.push({ text: ws[i]! + ws[i + 1]!, position: i, end: i + 2 });
    }
    const bestByBrand = new Map<string, Hit>();
    for (const key of this.keys) {
      if (!fuzzyWorthy(key.key)) continue;
      for (const span of spans) {
        if (Math.abs(span.text.length - key.key.length) > 1) continue;
        const similarity = jamoSimilarity(toJamo(span.text), key.jamo);
        if (similarity < Math.max(this.fuzzyMin, 0.85)) continue;
        const prev = bestByBrand.get(key.brand.brandNo);
        if (!prev || similarity > prev.rank) bestByBrand.set(key.brand.brandNo, { ...span, key, similarity, rank: similarity });
      }
    }
    const ranked = [...bestByBrand.values()].sort((a, b) => b.rank - a.rank || a.position - b.position);
    if (ranked.length === 0) return undefined;
    const top = ranked[0]!;
    const rivals = ranked.filter((h) => top.rank - h.rank < 0.02);
    return this.decide(
      ws,
      rivals,
      (hit) => ({
        status: 'FUZZY',
        confidence: 'MEDIUM',
        reason: `상품명의 '${ws.slice(hit.position, hit.end).join(' ')}'${josa.pick(ws[hit.end - 1]!, '이/가')} ${describeKey(hit.key)}${josa.pick(hit.key.written, '와/과')} 비슷합니다 (자모 유사도 ${hit.similarity.toFixed(2)}).`,
      }),
      ws.slice(top.position, top.end).join(''),
    );
  }

  /** One brand among the hits → its match (checked for compatibility words); several different brands → AMBIGUOUS. */
  private decide(
    ws: readonly string[],
    hits: Hit[],
    describe: (hit: Hit) => Pick<BrandMatch, 'status' | 'confidence' | 'reason'>,
    /** The brand as written in the name when it differs from the key (`skdlzl`, `ㄴㅇㅋ`, `뉴발란쓰`): removed before category scoring. */
    written?: string,
  ): BrandMatch {
    const first = hits[0]!;
    const brands = [...new Map(hits.filter((h) => h.position === first.position).map((h) => [h.key.brand.brandNo, h.key.brand])).values()];
    if (brands.length > 1) {
      return {
        status: 'AMBIGUOUS',
        confidence: 'LOW',
        reason: `'${first.key.written}'${josa.pick(first.key.written, '은/는')} 여러 브랜드에 해당합니다: ${brands.map((b) => `${b.brandNm} (${b.brandNo})`).join(', ')}. 브랜드를 직접 선택해 주세요.`,
        matchedText: first.key.key,
      };
    }
    const d = describe(first);
    const m: BrandMatch = {
      brandNo: first.key.brand.brandNo,
      brandNm: first.key.brand.brandNm,
      matchedText: written ?? first.key.key,
      ...d,
    };
    return d.confidence === 'LOW' ? suggestion(m, d.reason) : this.checked(m, ws, first);
  }
}

const describeKey = (k: BrandKey): string =>
  k.kind === 'name' ? `브랜드명 '${k.written}'` : `브랜드 '${k.brand.brandNm}'의 별칭 '${k.written}'`;

/** A LOW suggestion: the brand is named for the person to confirm, never filled in as `brandNo`. */
const suggestion = (m: BrandMatch, reason: string): BrandMatch => ({
  brandNm: m.brandNm,
  matchedText: m.matchedText,
  status: m.status,
  confidence: 'LOW',
  reason,
});

const notFound = (reason: string): BrandMatch => ({ status: 'NOT_FOUND', confidence: 'LOW', reason });
