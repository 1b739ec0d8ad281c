import type { AiAutoFillModelOutput, AiGoodsAutoFillResponse, GoodsCtgAtt, GoodsNotiItemValue } from '@bo/contracts';
import { AppError } from '@bo/service-kit';
import type { AiProvider, NameAnalysis } from '../provider/types.ts';
import type { AiRunner } from '../provider/ai-runner.ts';
import { cleanDisplayName, foldCase } from '../text/normalise.ts';
import type { BrandMatch } from './brand-matcher.ts';
import type { CategoryThresholds } from './category-classifier.ts';
import { acceptCategory, calibrate } from './category-confidence.ts';
import { categoryText } from './category-text.ts';
import { ruleBasedListing } from './listing-text.ts';
import type { MasterIndex } from './master-index.ts';
import { attributeValue, modelCodes, originOf } from './name-facts.ts';

export interface AutoFillContext {
  masters: MasterIndex;
  provider: AiProvider;
  runner: AiRunner;
  thresholds: CategoryThresholds;
}

/** Attributes worth reading from any name, before a category is known. */
const GENERIC_ATTRIBUTES = ['색상', '사이즈', '소재', '용량'];

/**
 * The deterministic part of auto-fill: brand cascade, category candidates and the confidence
 * test, model codes, origin and attribute words. The category is scored on the name without
 * the brand, the model codes and the variant words (sizes, colours …), which say nothing about
 * what the goods are; the matched brand's own goods then lend their categories a small prior.
 */
export function analyseName(productName: string, masters: MasterIndex, thresholds: CategoryThresholds): NameAnalysis {
  let brand = masters.brands.match(productName);
  const codes = modelCodes(productName);
  const text = categoryText(productName, { codes, phrases: brand.matchedText ? [brand.matchedText] : [] });
  let candidates = masters.categories.rank(text, 5, brand.brandNo);
  const elsewhere = brand.brandNo ? outsideBrandRoots(brand, text, masters, thresholds) : undefined;
  if (elsewhere) {
    // `실리콘 헤라 주걱`: the goods are of a kind the brand does not sell; the word is another word.
    brand = {
      brandNm: brand.brandNm,
      matchedText: brand.matchedText,
      status: brand.status,
      confidence: 'LOW',
      reason: `${brand.reason} 다만 이 브랜드의 상품은 '${elsewhere}' 분야에 없어 같은 글자의 다른 말로 보고 제안만 합니다.`,
    };
    candidates = masters.categories.rank(text, 5);
  }
  // A leaf barely like the name (similarity below the floor) is no candidate a merchandiser
  // should be shown; each listed candidate's score is its calibrated probability.
  candidates = calibrate(candidates.filter((c) => c.similarity >= thresholds.candidateFloor));
  const accepted = acceptCategory(candidates, thresholds);
  const attNames = accepted ? masters.attributesOf(accepted.stdCtgNo).map((a) => a.attNm) : GENERIC_ATTRIBUTES;
  const attributeWords = [...new Set(attNames.map((n) => attributeValue(n, productName)).filter((v): v is string => !!v))];
  return {
    productName,
    cleanedName: cleanDisplayName(productName),
    brand,
    candidates,
    accepted,
    modelCodes: codes,
    origin: originOf(productName),
    attributeWords,
  };
}

/**
 * For a short brand word (homographs are short: 헤라, 에이스, 매일), the root of the category the
 * name is confidently of, without the brand's prior, when the brand's listed goods are all
 * under other roots.
 */
function outsideBrandRoots(brand: BrandMatch, text: string, masters: MasterIndex, thresholds: CategoryThresholds): string | undefined {
  if ((brand.matchedText?.length ?? 0) > 3) return undefined;
  const roots = masters.brandRoots(brand.brandNo!);
  if (!roots) return undefined;
  const ranked = masters.categories.rank(text, 5).filter((c) => c.similarity >= thresholds.candidateFloor);
  // The similarity rule whatever the configured rule: this brand check was tuned with it.
  const top = acceptCategory(ranked, {
    minScore: thresholds.minScore,
    minMargin: thresholds.minMargin,
    candidateFloor: thresholds.candidateFloor,
  });
  const root = top && masters.rootOf(top.stdCtgNo);
  if (!roots || !root || roots.has(root)) return undefined;
  return masters.categoryByNo.get(root)?.stdCtgNm;
}

/**
 * Auto-fill from a product name. The provider proposes; verification decides: the brand goes
 * through the master cascade (the proposal is only a hint), the category is the one that passed
 * the confidence test, a model code must be written in the name. Nothing is written anywhere.
 */
export async function autoFill(productName: string, ctx: AutoFillContext): Promise<AiGoodsAutoFillResponse> {
  return (await autoFillAnswer(productName, ctx)).payload;
}

/** Codes after which auto-fill answers from its own analysis: the model timed out, failed, answered unusably, or its circuit is open. */
const FALLBACK_CODES = new Set(['2101', '2102', '2104']);

/**
 * Auto-fill, and when the model could not help, the offline analysis it had already computed
 * with a message that says so (`message`), instead of a failure. A full queue (2103) is still
 * refused: falling back there would hide overload.
 */
export async function autoFillAnswer(
  productName: string,
  ctx: AutoFillContext,
): Promise<{ payload: AiGoodsAutoFillResponse; message?: string }> {
  const analysis = analyseName(productName, ctx.masters, ctx.thresholds);
  try {
    const proposal = await ctx.runner.run((signal) => ctx.provider.proposeAutoFill(analysis, signal));
    return { payload: verify(analysis, proposal, ctx.masters) };
  } catch (err) {
    if (ctx.provider.name === 'offline' || !(err instanceof AppError) || !FALLBACK_CODES.has(err.code)) throw err;
    return {
      payload: verify(analysis, ruleBasedListing(analysis), ctx.masters),
      message: `AI model unavailable (${err.code} ${err.message}); answered from the offline analysis`,
    };
  }
}

const statedIn = (name: string, value: string): boolean =>
  !!value && foldCase(name).replace(/\s+/g, '').includes(foldCase(value).replace(/\s+/g, ''));

export function verify(a: NameAnalysis, proposal: AiAutoFillModelOutput, masters: MasterIndex): AiGoodsAutoFillResponse {
  const rules = ruleBasedListing(a);
  const pick = (key: keyof AiAutoFillModelOutput, max: number): string | undefined => {
    const value = (proposal[key] ?? '').trim() || rules[key];
    return value ? value.slice(0, max) : undefined;
  };
  const brand =
    proposal.brandNm.trim() && proposal.brandNm.trim() !== a.brand.brandNm
      ? masters.brands.match(a.productName, proposal.brandNm)
      : a.brand;
  const modlNm = statedIn(a.productName, proposal.modlNm) ? proposal.modlNm.trim() : rules.modlNm;
  // Manufacturer, origin and importer go into the legal notice items: a model's value is kept
  // only when the name states it (or it is the verified brand), never invented.
  const fact = (key: 'mfcoNm' | 'homeNm' | 'incomNm', max: number): string | undefined => {
    const value = (proposal[key] ?? '').trim();
    const backed = value && (statedIn(a.productName, value) || value === rules[key] || (brand.brandNo && value === brand.brandNm));
    return (backed ? value : rules[key]).slice(0, max) || undefined;
  };
  const accepted = a.accepted;

  const out: AiGoodsAutoFillResponse = {
    goodsNm: pick('goodsNm', 300),
    schKwdNm: pick('schKwdNm', 500),
    seoTitleNm: pick('seoTitleNm', 300),
    seoDesc: pick('seoDesc', 1000),
    seoKwdNm: pick('seoKwdNm', 500),
    modlNm: modlNm || undefined,
    mfcoNm: fact('mfcoNm', 200),
    homeNm: fact('homeNm', 100),
    salemnNm: pick('salemnNm', 200),
    incomNm: fact('incomNm', 200),
    brandNo: brand.brandNo,
    brandNm: brand.brandNm,
    brandMatchStatus: brand.status,
    brandConfidence: brand.confidence,
    brandReason: brand.reason,
    stdCtgCandidates: a.candidates.map(({ stdCtgNo, stdCtgHierarchy, score, similarity, reason }) => ({
      stdCtgNo,
      stdCtgHierarchy,
      score,
      similarity,
      reason,
    })),
    content: pick('content', 5000),
    citations: [],
    schPsbYn: 'Y',
  };
  if (accepted) Object.assign(out, categoryFields(accepted.stdCtgNo, a, out, masters));
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** Everything that follows from the accepted category: MD, notice items, certification, size guide, attributes. */
function categoryFields(stdCtgNo: string, a: NameAnalysis, filled: AiGoodsAutoFillResponse, masters: MasterIndex): AiGoodsAutoFillResponse {
  const category = masters.categoryByNo.get(stdCtgNo)!;
  const mdId = masters.inherited(stdCtgNo, 'mdId') ?? undefined;
  const notiCd = masters.inherited(stdCtgNo, 'goodsNotiLisartCd') ?? undefined;
  const attributes: GoodsCtgAtt[] = masters.attributesOf(stdCtgNo).map((att) => {
    const value = attributeValue(att.attNm, a.productName) ?? '';
    return {
      stdCtgNo,
      goodsNo: '',
      attValTypCd: att.attValTypCd,
      attNm: att.attNm,
      attCd: att.attCd,
      attVal: value,
      dispSeq: String(att.dispSeq),
      orgnAttNm: att.attNm,
      orgnAttVal: value,
    };
  });
  const notice: GoodsNotiItemValue[] = notiCd
    ? masters.noticeItemsOf(notiCd).map((item) => ({
        goodsNotiLisartCd: notiCd,
        goodsNotiItemCd: item.goodsNotiItemCd,
        notiItemNm: item.notiItemNm,
        notiItemCmt: noticeValue(item.notiItemNm, filled, attributes),
      }))
    : [];
  const leaf = category.stdCtgNm;
  return {
    stdCtgNo,
    stdCtgHierarchy: masters.hierarchyOf(stdCtgNo),
    mdId,
    mdNm: mdId ? masters.mdName(mdId) : undefined,
    goodsNotiLisartCd: notiCd,
    goodsNotiItemCodeList: notice,
    safeCertiNeedYn: category.safeCertiNeedYn,
    safeCertiTgtYn: category.safeCertiTgtYn,
    szGdeUseYn: category.szGdeUseYn,
    szGdeRegMethodCd: category.szGdeRegMethCd ?? undefined,
    szGdeCd: category.szGdeCd ?? undefined,
    goodsCtgAttInfoList: attributes,
    adveWrd: [filled.brandNo && filled.brandNm, leaf, ...a.attributeWords.slice(0, 1)].filter(Boolean).join(' '),
  };
}

/** A notice item's value when the name (through the fields above) states it; empty for the seller to fill. */
function noticeValue(itemNm: string, f: AiGoodsAutoFillResponse, atts: readonly GoodsCtgAtt[]): string {
  const att = (re: RegExp) => atts.find((x) => re.test(x.attNm) && x.attVal)?.attVal ?? '';
  if (/모델/.test(itemNm)) return f.modlNm ?? '';
  if (/제조국|원산지/.test(itemNm)) return f.homeNm ?? att(/원산지/);
  if (/수입/.test(itemNm) && !/제조/.test(itemNm)) return f.incomNm ?? '';
  if (/제조자|제조사|제조업자/.test(itemNm)) return f.mfcoNm ?? f.incomNm ?? '';
  if (/색상/.test(itemNm)) return att(/색상/);
  if (/소재|재질/.test(itemNm)) return att(/소재|재질/);
  if (/치수|사이즈|크기/.test(itemNm)) return att(/사이즈|크기/);
  if (/용량|중량/.test(itemNm)) return att(/용량|중량/);
  return '';
}
