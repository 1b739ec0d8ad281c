import { jamoSimilarity, toJamo } from '../text/hangul-distance.ts';
import { isAttributeWord } from './name-facts.ts';
import { normaliseText, words } from '../text/normalise.ts';

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
  similarity: number;
  /** Order of preference among hits (the similarity, or for fuzzy hits also the word coverage). */
  rank: number;
}

const keyOf = (text: string): string => normaliseText(text).replace(/\s+/g, '');
const isLatin = (s: string): boolean => /^[a-z0-9.&'-]+$/.test(s);
/** Shortest key worth a substring search: one Hangul syllable or two Latin letters match by accident. */
const substringWorthy = (key: string): boolean => key.length >= (isLatin(key) ? 3 : 2);
const MAX_SPAN_WORDS = 3;

/**
 * The brand-master matcher cascade: exact name, alias, longest name inside the unspaced product
 * name, then Hangul-aware fuzzy matching. Two different brands equally good at the deciding step
 * make the answer AMBIGUOUS rather than a guess.
 */
export class BrandMatcher {
  private readonly byKey = new Map<string, BrandKey[]>();
  private readonly keys: BrandKey[] = [];

  constructor(
    brands: readonly BrandMaster[],
    private readonly fuzzyMin: number,
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
      if (!fromName.brandNo) {
        return {
          ...fromProposal,
          matchedText: undefined,
          confidence: 'MEDIUM',
          reason: `상품명에 브랜드가 쓰여 있지 않아 모델이 제안한 '${shown}'을(를) 브랜드 마스터에서 확인했습니다: ${fromProposal.brandNm} (${fromProposal.brandNo}).`,
        };
      }
    }
    if (fromName.brandNo) {
      return { ...fromName, reason: `${fromName.reason} 모델이 제안한 '${shown}'은(는) 상품명과 맞지 않아 쓰지 않았습니다.` };
    }
    return {
      ...fromName,
      reason: `모델이 제안한 '${shown}'은(는) 브랜드 마스터에 없습니다. ${fromName.reason}`,
    };
  }

  private matchName(productName: string): BrandMatch {
    const ws = words(productName);
    if (ws.length === 0) return notFound('상품명에 글자가 없습니다.');
    const exact = this.wordSpanMatch(ws);
    if (exact) return exact;
    const inside = this.substringMatch(ws);
    // A short name found inside a longer word (`피크` in `피크킈즈`) is weaker evidence than a
    // close spelling of a longer name (`피크키즈`): the longer fuzzy match wins then.
    if (inside && !ws.includes(inside.matchedText ?? '')) {
      const fuzzy = this.fuzzyMatch(ws);
      if (fuzzy?.matchedText && fuzzy.matchedText.length > (inside.matchedText?.length ?? 0)) return fuzzy;
    }
    return (
      inside ??
      this.fuzzyMatch(ws) ??
      notFound(`상품명 '${ws.join(' ')}'에서 브랜드 마스터의 브랜드명·별칭과 같거나 비슷한 말을 찾지 못했습니다.`)
    );
  }

  /** Whole words (or up to three consecutive words) equal to a name or an alias. */
  private wordSpanMatch(ws: string[]): BrandMatch | undefined {
    // The earliest word that names a brand wins (the brand leads most names; a later word such
    // as a product line may happen to equal another brand); at that word, the longest span.
    let best: Hit[] = [];
    for (let i = 0; i < ws.length && best.length === 0; i++) {
      let bestLen = 0;
      for (let len = 1; len <= MAX_SPAN_WORDS && i + len <= ws.length; len++) {
        const span = ws.slice(i, i + len).join('');
        const entries = this.byKey.get(span);
        if (entries && span.length > bestLen) {
          best = entries.map((key) => ({ key, position: i, similarity: 1, rank: 1 }));
          bestLen = span.length;
        }
      }
    }
    if (best.length === 0) return undefined;
    return decide(best, (hit) =>
      hit.key.kind === 'name'
        ? { status: 'EXACT', confidence: 'HIGH', reason: `상품명의 '${hit.key.key}'이(가) 브랜드명 '${hit.key.written}'과(와) 일치합니다.` }
        : {
            status: 'ALIAS',
            confidence: 'HIGH',
            reason: `상품명의 '${hit.key.key}'이(가) 브랜드 '${hit.key.brand.brandNm}'의 별칭 '${hit.key.written}'과(와) 일치합니다.`,
          },
    );
  }

  /** The longest name or alias written inside the unspaced name (`나이키에어맥스`). */
  private substringMatch(ws: string[]): BrandMatch | undefined {
    const joined = ws.join('');
    const starts: number[] = [];
    let offset = 0;
    for (const w of ws) {
      starts.push(offset);
      offset += w.length;
    }
    let hits: Hit[] = [];
    for (const key of this.keys) {
      if (hits.length && key.key.length < hits[0]!.key.key.length) break;
      if (!substringWorthy(key.key)) continue;
      const at = joined.indexOf(key.key);
      if (at < 0) continue;
      const position = starts.filter((s) => s <= at).length - 1;
      hits.push({ key, position, similarity: 1, rank: 1 });
    }
    if (hits.length === 0) return undefined;
    hits = hits.sort((a, b) => a.position - b.position);
    return decide(hits, (hit) => {
      const confidence: BrandConfidence = hit.key.key.length >= 3 ? 'MEDIUM' : 'LOW';
      const what =
        hit.key.kind === 'name' ? `브랜드명 '${hit.key.written}'` : `브랜드 '${hit.key.brand.brandNm}'의 별칭 '${hit.key.written}'`;
      return {
        status: hit.key.kind === 'name' ? 'EXACT' : 'ALIAS',
        confidence,
        reason: `띄어쓰기를 뺀 상품명 안에 ${what}이(가) 들어 있습니다 (단어 경계가 아니라 ${confidence === 'MEDIUM' ? '중간' : '낮은'} 신뢰도).`,
      };
    });
  }

  /** Close spellings: typos and spacing compared on jamo (`나이크` ≈ `나이키`). */
  private fuzzyMatch(ws: string[]): BrandMatch | undefined {
    const spans: { text: string; position: number }[] = [];
    for (let i = 0; i < ws.length; i++) {
      // Colour, material and similar words are attributes, however close they look to a brand (베이지 ≈ 베이직).
      if (isAttributeWord(ws[i]!)) continue;
      spans.push({ text: ws[i]!, position: i });
      if (i + 1 < ws.length && !isAttributeWord(ws[i + 1]!)) spans.push({ text: ws[i]! + ws[i + 1]!, position: i });
    }
    const jamoCache = new Map<string, string>();
    const jamoOf = (text: string): string => {
      let j = jamoCache.get(text);
      if (j === undefined) jamoCache.set(text, (j = toJamo(text)));
      return j;
    };
    const bestByBrand = new Map<string, Hit>();
    for (const key of this.keys) {
      if (!substringWorthy(key.key)) continue;
      for (const span of spans) {
        // A longer word may start with a misspelt brand (`나이크운동화`): compare its prefixes too.
        const candidates =
          span.text.length > key.key.length + 1
            ? [span.text.slice(0, key.key.length - 1), span.text.slice(0, key.key.length), span.text.slice(0, key.key.length + 1)]
            : [span.text];
        for (const text of candidates) {
          if (Math.abs(text.length - key.key.length) > Math.max(1, Math.floor(key.key.length / 3))) continue;
          const similarity = jamoSimilarity(jamoOf(text), key.jamo);
          if (similarity < this.fuzzyMin) continue;
          // Ranking also weighs how much of the word the name explains: `피크` as the prefix of
          // `피크킈즈` ranks below `피크키즈` one jamo away.
          const rank = similarity * (0.5 + (0.5 * Math.min(key.key.length, span.text.length)) / span.text.length);
          const prev = bestByBrand.get(key.brand.brandNo);
          if (!prev || rank > prev.rank || (rank === prev.rank && span.position < prev.position)) {
            bestByBrand.set(key.brand.brandNo, { key, position: span.position, similarity, rank });
          }
        }
      }
    }
    const ranked = [...bestByBrand.values()].sort((a, b) => b.rank - a.rank || a.position - b.position);
    if (ranked.length === 0) return undefined;
    const top = ranked[0]!;
    const rivals = ranked.filter((h) => top.rank - h.rank < 0.02 && h.position === top.position);
    return decide(rivals, (hit) => ({
      status: 'FUZZY',
      confidence: hit.similarity >= 0.9 ? 'MEDIUM' : 'LOW',
      reason: `상품명의 표기가 ${hit.key.kind === 'name' ? '브랜드명' : `브랜드 '${hit.key.brand.brandNm}'의 별칭`} '${hit.key.written}'과(와) 비슷합니다 (자모 유사도 ${hit.similarity.toFixed(2)}).`,
    }));
  }
}

/** One brand among the hits → its match; several different brands → AMBIGUOUS. */
function decide(hits: Hit[], describe: (hit: Hit) => Pick<BrandMatch, 'status' | 'confidence' | 'reason'>): BrandMatch {
  const first = hits[0]!;
  const brands = [...new Map(hits.filter((h) => h.position === first.position).map((h) => [h.key.brand.brandNo, h.key.brand])).values()];
  if (brands.length > 1) {
    return {
      status: 'AMBIGUOUS',
      confidence: 'LOW',
      reason: `'${first.key.written}'은(는) 여러 브랜드에 해당합니다: ${brands.map((b) => `${b.brandNm} (${b.brandNo})`).join(', ')}. 브랜드를 직접 선택해 주세요.`,
      matchedText: first.key.key,
    };
  }
  return { brandNo: first.key.brand.brandNo, brandNm: first.key.brand.brandNm, matchedText: first.key.key, ...describe(first) };
}

const notFound = (reason: string): BrandMatch => ({ status: 'NOT_FOUND', confidence: 'LOW', reason });
