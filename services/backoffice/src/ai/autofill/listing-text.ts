import { josa } from 'es-hangul';
import type { AiAutoFillModelOutput } from '@bo/contracts';
import type { NameAnalysis } from '../provider/types.ts';

const truncate = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);
const unique = (items: readonly string[]): string[] => [...new Set(items.map((s) => s.trim()).filter(Boolean))];

/** Category names from the accepted hierarchy, leaf first. */
const categoryNames = (a: NameAnalysis): string[] =>
  a.accepted
    ? a.accepted.stdCtgHierarchy
        .split(' > ')
        .reverse()
        .flatMap((n) => n.split('/'))
    : [];

/**
 * Listing text written from what the analysis established (cleaned name, verified brand,
 * accepted category, stated attributes, model code): the offline provider's proposal, and the
 * fallback for anything a model leaves empty.
 */
export function ruleBasedListing(a: NameAnalysis): AiAutoFillModelOutput {
  // A LOW suggestion (`다이슨 스타일 선풍기`) is not the goods' brand: it is not written into the text.
  const brandNm = a.brand.brandNo ? (a.brand.brandNm ?? '') : '';
  const [leaf = '', parent = ''] = categoryNames(a);
  const keywords = unique([brandNm, leaf, parent, ...a.attributeWords, ...a.modelCodes]);
  const about = [brandNm && `${brandNm}의`, leaf || '상품'].filter(Boolean).join(' ');
  const stated = a.attributeWords.length ? ` ${a.attributeWords.join(', ')} 옵션을 확인하세요.` : '';
  const model = a.modelCodes[0] ? ` 모델명 ${a.modelCodes[0]}.` : '';
  return {
    goodsNm: a.cleanedName,
    schKwdNm: keywords.join(','),
    seoTitleNm: truncate(leaf && !a.cleanedName.replace(/\s/g, '').includes(leaf) ? `${a.cleanedName} | ${leaf}` : a.cleanedName, 80),
    seoDesc: truncate(`${about} ${a.cleanedName}.${model}${stated}`.trim(), 160),
    seoKwdNm: keywords.slice(0, 10).join(','),
    modlNm: a.modelCodes[0] ?? '',
    mfcoNm: '',
    homeNm: a.origin?.country ?? '',
    salemnNm: '',
    incomNm: '',
    brandNm,
    stdCtgNo: a.accepted?.stdCtgNo ?? '',
    content: `${josa(a.cleanedName, '은/는')} ${about}입니다.${model}${stated}`.trim(),
  };
}
