/**
 * The SpreadsheetML (ECMA-376) parts of a plain data workbook, as text. Cells are inline strings
 * and plain numbers with no styles, so a sheet is written row by row and never needs a
 * shared-strings table (which would hold every distinct text of the download in memory).
 *
 * Why not a spreadsheet library: SheetJS `xlsx` (still the reader in the tests) builds the whole
 * workbook in memory: for 100,000 rows × 14 columns +580 MB and 6–7 s with the event loop
 * blocked throughout. exceljs's streaming writer (4.4.0) needs +90 MB and twice the CPU of this
 * writer, and does not install from the registry without overriding a transitive dependency.
 */

export type CellValue = string | number | null | undefined;

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

/**
 * Serialises rows of one column layout. A cell carries its reference only after an empty
 * (omitted) cell; otherwise readers place it right after its neighbour, which keeps a sheet
 * about a fifth smaller to build and half as big compressed.
 */
export function rowWriter(columnCount: number): (rowNumber: number, values: readonly CellValue[]) => string {
  const letters = Array.from({ length: columnCount }, (_, c) => columnLetters(c));
  return (rowNumber, values) => {
    let xml = `<row r="${rowNumber}">`;
    let gap = false;
    for (let c = 0; c < columnCount; c++) {
      const v = values[c];
      const ref = gap ? ` r="${letters[c]}${rowNumber}"` : '';
      if (typeof v === 'number' && Number.isFinite(v)) {
        xml += `<c${ref}><v>${v}</v></c>`;
      } else if (typeof v === 'string') {
        const t = xmlText(v);
        const space = EDGE_SPACE.test(t) ? ' xml:space="preserve"' : '';
        xml += `<c${ref} t="inlineStr"><is><t${space}>${t}</t></is></c>`;
      } else {
        // null, undefined, NaN or ±Infinity: no cell.
        gap = true;
        continue;
      }
      gap = false;
    }
    return `${xml}</row>`;
  };
}

export const SHEET_START = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>`;
export const SHEET_END = '</sheetData></worksheet>';

export const sheetPath = (index: number) => `xl/worksheets/sheet${index + 1}.xml`;

/** The parts that name the sheets; written last, once the number of sheets is known. */
export function packageParts(sheetNames: readonly string[]): { path: string; xml: string }[] {
  const sheets = sheetNames.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`);
  const sheetRels = sheetNames.map(
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  const sheetTypes = sheetNames.map((_, i) => `<Override PartName="/${sheetPath(i)}" ContentType="${TYPE}.worksheet+xml"/>`);
  return [
    {
      path: 'xl/workbook.xml',
      xml: `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheets.join('')}</sheets></workbook>`,
    },
    {
      path: 'xl/_rels/workbook.xml.rels',
      xml: `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${sheetRels.join('')}<Relationship Id="rId${sheetNames.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    },
    { path: 'xl/styles.xml', xml: STYLES },
    {
      path: '_rels/.rels',
      xml: `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      path: '[Content_Types].xml',
      xml:
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${TYPE}.styles+xml"/>` +
        `${sheetTypes.join('')}</Types>`,
    },
  ];
}

/** The one default cell format Excel expects to find (font, fills, border, Normal style). */
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';
