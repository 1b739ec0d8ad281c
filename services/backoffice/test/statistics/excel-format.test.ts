import { expect } from 'chai';
import type { ExcelColumn } from '../../src/statistics/excel/excel-writer.ts';
import { readWorkbook } from './helpers/read-workbook.ts';
import { workbookBytes } from './helpers/workbook-bytes.ts';

interface Row {
  day: string | null;
  month: string;
  name: string;
  amt: number;
  qty: number;
}
const COLUMNS: ExcelColumn<Row>[] = [
  { header: '일자', value: (r) => r.day, format: 'day' },
  { header: '월', value: (r) => r.month, format: 'month' },
  { header: '상품명', value: (r) => r.name },
  { header: '주문금액', value: (r) => r.amt, format: 'number' },
  { header: '수량', value: (r) => r.qty, format: 'number' },
];
const DATA: Row[] = [
  { day: '20260501', month: '202605', name: '여름 린넨 셔츠 (화이트, XL) 한정판', amt: 1_234_567_890, qty: 3 },
  { day: '2026-05-02', month: '2026-06', name: 'A', amt: -5, qty: 12_000 },
  { day: '20260230', month: '202613', name: 'B', amt: 0, qty: 0 },
  { day: null, month: '202612', name: 'C', amt: 7, qty: 1 },
];
const TITLE = ['상품별 주문현황', '조회기간 2026-05-01 ~ 2026-05-31 | 집계구분 01 (주문) | 사이트번호 S01'];

/** Width in characters as a spreadsheet shows the text: Hangul counts double. */
const shownWidth = (text: string) => [...text].reduce((w, ch) => w + (/[\uac00-\ud7a3]/.test(ch) ? 2 : 1), 0);

describe('statistics: Excel look (formats, header, widths, title)', function () {
  this.timeout(30_000);

  it('when amounts, quantities, days and months are written, then numbers show #,##0, days and months are date cells, impossible dates stay text', async () => {
    const { sheets } = await readWorkbook(await workbookBytes(COLUMNS, DATA, { sheetName: 'S', titleLines: TITLE }));
    const { worksheet: ws, headerRow, aoa } = sheets[0]!;
    expect(aoa.slice(1)).to.deep.equal([
      [new Date('2026-05-01T00:00:00Z'), new Date('2026-05-01T00:00:00Z'), DATA[0]!.name, 1_234_567_890, 3],
      [new Date('2026-05-02T00:00:00Z'), new Date('2026-06-01T00:00:00Z'), 'A', -5, 12_000],
      ['20260230', '202613', 'B', 0, 0],
      [null, new Date('2026-12-01T00:00:00Z'), 'C', 7, 1],
    ]);
    const first = headerRow + 1;
    expect(ws.getCell(`D${first}`).numFmt).to.equal('#,##0');
    expect(ws.getCell(`E${first + 1}`).numFmt).to.equal('#,##0');
    expect(ws.getCell(`A${first}`).numFmt).to.equal('yyyy-mm-dd');
    expect(ws.getCell(`B${first}`).numFmt).to.equal('yyyy-mm');
    expect(ws.getCell(`C${first}`).numFmt ?? 'General').to.equal('General');
  });

  it('when a workbook is written, then the header is bold and frozen with the rows above it, and the auto-filter spans header to last row on every sheet', async () => {
    const { sheets } = await readWorkbook(
      await workbookBytes(COLUMNS, DATA, { sheetName: '상품별', titleLines: TITLE, maxRowsPerSheet: 7 }),
    );
    expect(sheets.map((s) => s.name)).to.deep.equal(['상품별', '상품별 (2)']);
    expect(sheets.map((s) => s.aoa.length - 1)).to.deep.equal([3, 1]);
    for (const { worksheet: ws, headerRow, titleLines } of sheets) {
      expect(headerRow).to.equal(4);
      expect(titleLines).to.deep.equal(TITLE);
      expect(ws.getCell('A1').font?.bold).to.equal(true);
      expect(ws.views[0]).to.include({ state: 'frozen', ySplit: 4, xSplit: 0, topLeftCell: 'A5' });
      for (let c = 1; c <= COLUMNS.length; c++) expect(ws.getRow(4).getCell(c).font?.bold, `header column ${c}`).to.equal(true);
      expect(ws.getCell('A5').font?.bold ?? false).to.equal(false);
      expect(ws.autoFilter).to.equal(`A4:E${ws.rowCount}`);
    }
    expect(sheets[0]!.worksheet.rowCount).to.equal(7);
  });

  it('when no title is given, then the header is row 1, still bold, frozen and filtered', async () => {
    const { sheets } = await readWorkbook(await workbookBytes(COLUMNS, DATA.slice(0, 2), { sheetName: 'S' }));
    const { worksheet: ws, headerRow } = sheets[0]!;
    expect(headerRow).to.equal(1);
    expect(ws.getCell('C1').font?.bold).to.equal(true);
    expect(ws.autoFilter).to.equal('A1:E3');
  });

  it('when columns hold short and long content, then each width fits its widest header or cell as shown', async () => {
    const { sheets } = await readWorkbook(await workbookBytes(COLUMNS, DATA, { sheetName: 'S', titleLines: TITLE }));
    const widths = sheets[0]!.worksheet.columns.map((c) => c.width!);
    // Widest content per column as shown: dates 10 / 7 characters, amounts with separators, the long name.
    const widest = [10, 7, shownWidth(DATA[0]!.name), '1,234,567,890'.length, shownWidth('수량')];
    widths.forEach((w, c) => {
      expect(w, `column ${c + 1}`).to.be.at.least(widest[c]!);
      expect(w, `column ${c + 1}`).to.be.at.most(widest[c]! + 8);
    });
    expect(widths[2]).to.be.greaterThan(widths[0]! + 20);
  });

  it('when a title is given, then the document properties carry it and the conditions', async () => {
    const { workbook } = await readWorkbook(await workbookBytes(COLUMNS, [], { sheetName: 'S', titleLines: TITLE }));
    expect(workbook.title).to.equal(TITLE[0]);
    expect(workbook.description).to.equal(TITLE[1]);
  });
});
