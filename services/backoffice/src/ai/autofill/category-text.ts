import { foldCase, normaliseText } from '../text/normalise.ts';
import { isVariantWord } from './name-facts.ts';

/** Remove the first occurrence of an unspaced phrase from spaced text (the brand may span words). */
export function removeUnspaced(text: string, phrase: string): string {
  if (!phrase) return text;
  const chars: { c: string; i: number }[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] !== ' ') chars.push({ c: text[i]!, i });
  const at = chars
    .map((x) => x.c)
    .join('')
    .indexOf(phrase);
  if (at < 0) return text;
  const from = chars[at]!.i;
  const to = chars[at + phrase.length - 1]!.i;
  return `${text.slice(0, from)} ${text.slice(to + 1)}`;
}

/**
 * The part of a product name that says what the goods are, for category scoring: normalised,
 * without the brand (`phrases`, unspaced normalised text), the model codes, and the words that
 * only pick a variant (sizes, colours, capacities, counts, bare numbers). Query names and the
 * names of existing goods go through the same cleaning, so they meet on the same words.
 */
export function categoryText(productName: string, remove: { codes: readonly string[]; phrases: readonly string[] }): string {
  let text = normaliseText(productName);
  for (const code of remove.codes) text = text.replace(foldCase(code), ' ');
  for (const phrase of remove.phrases) text = removeUnspaced(text, phrase);
  return text
    .split(/\s+/)
    .filter((w) => w && !isVariantWord(w))
    .join(' ');
}
