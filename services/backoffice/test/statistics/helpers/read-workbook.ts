import ExcelJS from 'exceljs';

/** What a test compares in one sheet of a download, read back with exceljs (a maintained reader). */
export interface SheetRead {
  name: string;
  /** The rows above the table (title and conditions), as text. */
  titleLines: string[];
  /** The 1-based row of the header: the last frozen row. */
  headerRow: number;
  /** The header row and every data row below it, one value per column (null when empty); dates as Date. */
  aoa: unknown[][];
  worksheet: ExcelJS.Worksheet;
}

const plain = (value: ExcelJS.CellValue): unknown => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'richText' in value) return value.richText.map((r) => r.text).join('');
  return value;
};

/** Every sheet of an xlsx; the table starts under the frozen rows (the header is the last of them). */
export async function readWorkbook(bytes: Buffer): Promise<{ workbook: ExcelJS.Workbook; sheets: SheetRead[] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheets = workbook.worksheets.map((worksheet) => {
    const view = worksheet.views[0] as { state?: string; ySplit?: number } | undefined;
    const headerRow = view?.state === 'frozen' ? (view.ySplit ?? 1) : 1;
    const columnCount = worksheet.getRow(headerRow).cellCount;
    const aoa: unknown[][] = [];
    for (let r = headerRow; r <= worksheet.rowCount; r++) {
      const row = worksheet.getRow(r);
      aoa.push(Array.from({ length: columnCount }, (_, c) => plain(row.getCell(c + 1).value)));
    }
    const titleLines: string[] = [];
    for (let r = 1; r < headerRow; r++) {
      const v = plain(worksheet.getRow(r).getCell(1).value);
      if (typeof v === 'string') titleLines.push(v);
    }
    return { name: worksheet.name, titleLines, headerRow, aoa, worksheet };
  });
  return { workbook, sheets };
}

/** A day or month cell as the grid list writes it: `yyyyMMdd` / `yyyyMM` (exceljs reads dates as UTC). */
export const compactDate = (d: unknown, month = false) => {
  if (!(d instanceof Date)) return d;
  const iso = d.toISOString();
  return month ? iso.slice(0, 7).replace('-', '') : iso.slice(0, 10).replace(/-/g, '');
};
