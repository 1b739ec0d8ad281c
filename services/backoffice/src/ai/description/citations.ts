import type { Citation } from '@bo/contracts';
import { charNgrams } from '../text/char-ngrams.ts';
import type { DescPage } from '../provider/types.ts';
import { sentencesOf, stringsOf } from './sentences.ts';

/** Share of a sentence's trigrams found in a page for the page to count as its source. */
const SUPPORT_UNCLAIMED = 0.6;
/** Lower bar for pages the generator itself said it used (a paraphrase keeps fewer trigrams). */
const SUPPORT_CLAIMED = 0.35;

const trigrams = (text: string): Set<string> => new Set(charNgrams(text, [3]));

/**
 * The pages the content actually used: a page is cited when some sentence of the content is
 * (mostly) made of its text. A generator's own source list only lowers the bar for the pages
 * it names; a page it names whose text the content does not use is not cited, and a page the
 * content copies from is cited even when the generator forgot to say so.
 */
export function verifiedCitations(
  content: unknown,
  pages: readonly DescPage[],
  claimed: readonly string[],
  /** Names every page repeats (the goods and brand name): a page that only repeats them is no source. */
  names: readonly string[] = [],
): Citation[] {
  const claimedIds = new Set(claimed);
  const pageGrams = pages.map((p) => trigrams(p.text));
  const used = new Set<number>();
  const withoutNames = (s: string) => names.filter(Boolean).reduce((text, n) => text.split(n).join(' '), s);
  for (const sentence of stringsOf(content).flatMap((s) => sentencesOf(s, { min: 6, max: 5000 }))) {
    const grams = trigrams(withoutNames(sentence));
    if (grams.size < 3) continue;
    pages.forEach((page, i) => {
      let shared = 0;
      for (const g of grams) if (pageGrams[i]!.has(g)) shared++;
      const support = shared / grams.size;
      if (support >= (claimedIds.has(page.id) ? SUPPORT_CLAIMED : SUPPORT_UNCLAIMED)) used.add(i);
    });
  }
  return [...used].sort((a, b) => a - b).map((i) => ({ file_name: pages[i]!.fileName, page_number: pages[i]!.pageNumber }));
}
