/** Sentences of a document page: split on sentence ends and line breaks, tidied, short scraps dropped. */
export function sentencesOf(text: string, options: { min?: number; max?: number } = {}): string[] {
  const min = options.min ?? 8;
  const max = options.max ?? 280;
  return text
    .normalize('NFKC')
    .split(/(?<=[.!?。])\s+|\n+|(?<=다\.)/)
    .map((s) =>
      s
        .replace(/^[\s•·\-*–—▶►■□◆◇○●]+/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s.replace(/\s/g, '').length >= min && s.length <= max);
}

/** Every string inside a content value (text, array or object), for citation checks. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}
