import { expect } from 'chai';
import { parse as parseContentDisposition } from 'content-disposition';
import { attachmentHeader, EXCEL_MAX_ROWS, type ExcelColumn } from '../../src/statistics/excel/excel-writer.ts';
import { readWorkbook } from './helpers/read-workbook.ts';
import { workbookBytes } from './helpers/workbook-bytes.ts';

interface Row {
  no: string;
  name: string | null;
  amt: number;
}
const COLUMNS: ExcelColumn<Row>[] = [
  { header: '번호', value: (r) => r.no },
  { header: '이름', value: (r) => r.name },
  { header: '금액', value: (r) => r.amt },
];
const rows = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ no: `N${i + 1}`, name: i % 3 === 0 ? null : `이름${i + 1}`, amt: (i + 1) * 1000 }));

const readBack = async (buffer: Buffer) => (await readWorkbook(buffer)).sheets.map(({ name, aoa }) => ({ name, aoa }));

describe('statistics: Excel writer', function () {
  this.timeout(60_000);

  it('when rows exceed a sheet, then the next sheet continues with its own header, and no row is lost or repeated', async () => {
    const data = rows(7);
    const sheets = await readBack(await workbookBytes(COLUMNS, data, { sheetName: '현황', maxRowsPerSheet: 4 }));
    expect(sheets.map((s) => s.name)).to.deep.equal(['현황', '현황 (2)', '현황 (3)']);
    for (const s of sheets) expect(s.aoa[0]).to.deep.equal(['번호', '이름', '금액']);
    expect(sheets.map((s) => s.aoa.length)).to.deep.equal([4, 4, 2]);
    expect(sheets.flatMap((s) => s.aoa.slice(1))).to.deep.equal(data.map((r) => [r.no, r.name, r.amt]));
  });

  it('when rows exactly fill a sheet, then there is no empty extra sheet', async () => {
    expect(await readBack(await workbookBytes(COLUMNS, rows(6), { sheetName: 'S', maxRowsPerSheet: 4 }))).to.have.length(2);
  });

  it('when there are no rows, then one sheet with the header only', async () => {
    const sheets = await readBack(await workbookBytes(COLUMNS, [], { sheetName: 'S' }));
    expect(sheets).to.deep.equal([{ name: 'S', aoa: [['번호', '이름', '금액']] }]);
  });

  it('when more rows than one chunk are written, then all arrive in order (chunked writing)', async () => {
    const data = rows(12_345);
    const [sheet] = await readBack(await workbookBytes(COLUMNS, data, { sheetName: 'S' }));
    expect(sheet!.aoa).to.have.length(12_346);
    expect(sheet!.aoa[12_345]).to.deep.equal(['N12345', '이름12345', 12_345_000]);
  });

  it('when no limit is given, then a sheet holds Excel’s 1,048,576 rows including the header', () => {
    expect(EXCEL_MAX_ROWS).to.equal(1_048_576);
  });

  it('when a Korean file name is given, then the header carries it RFC 5987-encoded with an ASCII fallback', () => {
    const header = attachmentHeader('기간별 주문현황', 'period-status-20260205.xlsx');
    expect(header).to.equal(
      "attachment; filename=period-status-20260205.xlsx; filename*=UTF-8''%EA%B8%B0%EA%B0%84%EB%B3%84%20%EC%A3%BC%EB%AC%B8%ED%98%84%ED%99%A9.xlsx",
    );
    expect(parseContentDisposition(header).parameters.filename).to.equal('기간별 주문현황.xlsx');
  });

  it('when the file name has path separators or control characters, then they become _; .xlsx is not doubled', () => {
    expect(parseContentDisposition(attachmentHeader('../a\\b\u0007.XLSX', 'd.xlsx')).parameters.filename).to.equal('.._a_b_.XLSX');
  });

  it('when no file name (or only blanks) is given, then the dated default', () => {
    expect(attachmentHeader(undefined, 'goods-status-20260205.xlsx')).to.equal('attachment; filename=goods-status-20260205.xlsx');
    expect(attachmentHeader('   ', 'goods-status-20260205.xlsx')).to.equal('attachment; filename=goods-status-20260205.xlsx');
  });
});
