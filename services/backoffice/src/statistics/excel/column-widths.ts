import type { CellFormat, CellValue } from './sheet-xml.ts';

/** Hangul, CJK and full-width forms take about two character widths in a spreadsheet font. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/gu;
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
/** Narrowest and widest column, in characters: a long goods name wraps the view, not the sheet. */
const MIN_WIDTH = 6;
const MAX_WIDTH = 60;
/** Room for the auto-filter's drop-down button beside a header, and a margin. */
const HEADER_EXTRA = 3;
const MARGIN = 2;

export function displayWidth(text: string): number {
  return text.length + (text.match(WIDE)?.length ?? 0);
}

/** Width of a cell as the sheet shows it: numbers grouped (`#,##0`), dates `yyyy-mm-dd` / `yyyy-mm`. */
function cellWidth(value: CellValue, format: CellFormat): number {
  if (typeof value === 'number') return Number.isFinite(value) ? GROUPED.format(value).length : 0;
  if (typeof value !== 'string') return 0;
  if (format === 'day') return 10;
  if (format === 'month') return 7;
  return displayWidth(value);
}

/**
 * Column widths fitted to the header and to the first rows (a streamed sheet declares its
 * widths before its rows, so the sample stands for the rest).
 */
export function fitWidths(headers: readonly string[], formats: readonly CellFormat[], sample: readonly (readonly CellValue[])[]): number[] {
  return headers.map((header, c) => {
    let widest = displayWidth(header) + HEADER_EXTRA;
    for (const row of sample) widest = Math.max(widest, cellWidth(row[c], formats[c]!));
    return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + MARGIN));
  });
}
