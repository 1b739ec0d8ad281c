/**
 * The SpreadsheetML (ECMA-376) parts of a report workbook, as text. Cells are inline strings and
 * plain numbers with a style index, so a sheet is written row by row and never needs a
 * shared-strings table (which would hold every distinct text of the download in memory).
 *
 * Why not a spreadsheet library: SheetJS `xlsx` builds the whole workbook in memory: for
 * 100,000 rows × 14 columns +580 MB and 6–7 s with the event loop blocked throughout.
 * exceljs's streaming writer (4.4.0, the tests' reader) needs +90 MB and twice the CPU of this
 * writer.
 */

export type CellValue = string | number | null | undefined;

/**
 * How a column shows its cells: `number` with thousands separators (`#,##0`), `day` and `month`
 * as real dates (from `yyyyMMdd`/`yyyy-MM-dd` and `yyyyMM`/`yyyy-MM` text), `text` as it is.
 */
export type CellFormat = 'text' | 'number' | 'day' | 'month';

/** Indexes into the `cellXfs` of STYLES. */
export const STYLE = { plain: 0, header: 1, number: 2, day: 3, month: 4, title: 5 } as const;
const FORMAT_STYLE: Record<CellFormat, number> = { text: STYLE.plain, number: STYLE.number, day: STYLE.day, month: STYLE.month };

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** Excel refuses a cell longer than this. */
const MAX_CELL_TEXT = 32_767;
/** Characters XML 1.0 cannot carry at all (also as references), and lone surrogates. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these control characters in a cell; finding them is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const MARKUP = /[&<>"]/g;
/** Text that starts or ends with white space keeps it only when marked so. */
const EDGE_SPACE = /^\s|\s$/;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function xmlText(text: string): string {
  let s = text.length > MAX_CELL_TEXT ? text.slice(0, MAX_CELL_TEXT) : text;
  NOT_XML.lastIndex = 0;
  if (NOT_XML.test(s)) s = s.replace(NOT_XML, '');
  MARKUP.lastIndex = 0;
  return MARKUP.test(s) ? s.replace(MARKUP, (c) => ENTITY[c]!) : s;
}

/** `A`, `B`, …, `Z`, `AA`, … for the 0-based column index. */
export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Days since 1899-12-30: Excel's date serial (1900 date system), for a date written as text. */
const DAY_TEXT = /^(\d{4})-?(\d{2})(?:-?(\d{2}))?$/;
const EPOCH = Date.UTC(1899, 11, 30);
export function dateSerial(text: string, format: 'day' | 'month'): number | undefined {
  const m = DAY_TEXT.exec(text);
  if (!m || (format === 'day') !== (m[3] !== undefined)) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 1)];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return (t - EPOCH) / 86_400_000;
}

/**
 * Serialises rows of one column layout. Every cell carries its reference: the format lets a
 * reader infer it, but exceljs (and other strict readers) refuse a cell without one. `style`
 * overrides the columns' formats for a whole row (the bold header, the title).
 */
export function rowWriter(formats: readonly CellFormat[]): (rowNumber: number, values: readonly CellValue[], style?: number) => string {
  const columnCount = formats.length;
  const letters = Array.from({ length: columnCount }, (_, c) => columnLetters(c));
  const styles = formats.map((f) => (FORMAT_STYLE[f] ? ` s="${FORMAT_STYLE[f]}"` : ''));
  return (rowNumber, values, style) => {
    const rowStyle = style === undefined ? undefined : style ? ` s="${style}"` : '';
    let xml = `<row r="${rowNumber}">`;
    for (let c = 0; c < columnCount; c++) {
      let v = values[c];
      const format = formats[c]!;
      if (rowStyle === undefined && typeof v === 'string' && (format === 'day' || format === 'month')) v = dateSerial(v, format) ?? v;
      if (typeof v === 'number' && Number.isFinite(v)) {
        xml += `<c r="${letters[c]}${rowNumber}"${rowStyle ?? styles[c]}><v>${v}</v></c>`;
      } else if (typeof v === 'string') {
        const t = xmlText(v);
        const space = EDGE_SPACE.test(t) ? ' xml:space="preserve"' : '';
        xml += `<c r="${letters[c]}${rowNumber}"${rowStyle ?? ''} t="inlineStr"><is><t${space}>${t}</t></is></c>`;
      }
      // null, undefined, NaN or ±Infinity: no cell.
    }
    return `${xml}</row>`;
  };
}

/** What the start of a sheet needs to know: the frozen rows above the data and the column widths. */
export interface SheetLayout {
  /** 1-based row of the header; the rows up to it stay frozen. */
  headerRow: number;
  /** Character widths, one per column. */
  widths: readonly number[];
}

/** The sheet up to its first row: frozen panes under the header and the fitted column widths. */
export function sheetStart(layout: SheetLayout): string {
  const { headerRow, widths } = layout;
  const cols = widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('');
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<sheetViews><sheetView workbookViewId="0">` +
    `<pane ySplit="${headerRow}" topLeftCell="A${headerRow + 1}" activePane="bottomLeft" state="frozen"/>` +
    `<selection pane="bottomLeft" activeCell="A${headerRow + 1}" sqref="A${headerRow + 1}"/></sheetView></sheetViews>` +
    `<cols>${cols}</cols><sheetData>`
  );
}

/** The auto-filter's range: the header and every data row of the sheet. */
export const filterRange = (headerRow: number, lastRow: number, columnCount: number) =>
  `A${headerRow}:${columnLetters(columnCount - 1)}${Math.max(lastRow, headerRow)}`;

export const sheetEnd = (range: string) => `</sheetData><autoFilter ref="${range}"/></worksheet>`;

export const sheetPath = (index: number) => `xl/worksheets/sheet${index + 1}.xml`;

export interface SheetEntry {
  name: string;
  /** The auto-filter range, for Excel's hidden `_FilterDatabase` name. */
  filter: string;
}

export interface DocumentProperties {
  title: string;
  /** The report's conditions, one line each. */
  description: readonly string[];
}

const absolute = (range: string) => range.replace(/([A-Z]+)(\d+)/g, '$$$1$$$2');
const quotedSheet = (name: string) => `'${name.replace(/'/g, "''")}'`;

/** The parts that name the sheets; written last, once the number of sheets is known. */
export function packageParts(sheets: readonly SheetEntry[], properties: DocumentProperties): { path: string; xml: string }[] {
  const sheetXml = sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`);
  const filters = sheets.map(
    (s, i) =>
      `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">${xmlText(`${quotedSheet(s.name)}!${absolute(s.filter)}`)}</definedName>`,
  );
  const sheetRels = sheets.map(
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  const sheetTypes = sheets.map((_, i) => `<Override PartName="/${sheetPath(i)}" ContentType="${TYPE}.worksheet+xml"/>`);
  return [
    {
      path: 'xl/workbook.xml',
      xml: `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheetXml.join('')}</sheets><definedNames>${filters.join('')}</definedNames></workbook>`,
    },
    {
      path: 'xl/_rels/workbook.xml.rels',
      xml: `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${sheetRels.join('')}<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    },
    { path: 'xl/styles.xml', xml: STYLES },
    {
      path: 'docProps/core.xml',
      xml:
        `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
        'xmlns:dc="http://purl.org/dc/elements/1.1/">' +
        `<dc:title>${xmlText(properties.title)}</dc:title><dc:description>${xmlText(properties.description.join('\n'))}</dc:description>` +
        '</cp:coreProperties>',
    },
    {
      path: '_rels/.rels',
      xml:
        `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
        `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    },
    {
      path: '[Content_Types].xml',
      xml:
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${TYPE}.styles+xml"/>` +
        `<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
        `${sheetTypes.join('')}</Types>`,
    },
  ];
}

/**
 * Fonts: regular, bold (header), bold 14 pt (title). Cell formats in the order of STYLE:
 * plain, bold header, `#,##0`, `yyyy-mm-dd`, `yyyy-mm`, title.
 */
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="3"><numFmt numFmtId="164" formatCode="#,##0"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd"/>' +
  '<numFmt numFmtId="166" formatCode="yyyy-mm"/></numFmts>' +
  '<fonts count="3"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="14"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';
