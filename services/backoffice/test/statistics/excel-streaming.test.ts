import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { createLogger, type Logger } from '@bo/service-kit';
import { sendWorkbook, writeWorkbook, XLSX_CONTENT_TYPE, type ExcelColumn } from '../../src/statistics/excel/excel-writer.ts';
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
const row = (i: number): Row => ({ no: `N${i + 1}`, name: i % 5 === 0 ? null : `이름 ${i + 1}`, amt: (i + 1) * 10 - 7 });
const cells = (r: Row) => [r.no, r.name, r.amt];

/** `count` rows, handed out one at a time as a database stream would; `pulled()` tells how many were taken. */
function source(count: number, failAt?: number) {
  let pulled = 0;
  let closed = false;
  async function* rows(): AsyncGenerator<Row> {
    try {
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new Error('connection lost');
        pulled += 1;
        if (i % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
        yield row(i);
      }
    } finally {
      closed = true;
    }
  }
  return { rows: rows(), pulled: () => pulled, closed: () => closed };
}

const sheetsOf = async (bytes: Buffer) => (await readWorkbook(bytes)).sheets;

/** A logger whose entries the test reads instead of printing them. */
function capturedLogger(): { logger: Logger; entries: { level: string; message: string }[] } {
  const logger = createLogger('excel-test', 'info');
  for (const transport of logger.transports) transport.silent = true;
  const entries: { level: string; message: string }[] = [];
  logger.on('data', (info: { level: string; message: string }) => entries.push(info));
  return { logger, entries };
}

/** A bare HTTP server answering GET / with `sendWorkbook` over the given rows, errors as 500 JSON. */
async function downloadServer(rows: AsyncIterable<Row>, logger: Logger): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.get('/', async (_req, res, next) => {
    try {
      await sendWorkbook(res, logger, COLUMNS, rows, { sheetName: 'S', contentDisposition: 'attachment; filename=s.xlsx' });
    } catch (err) {
      next(err);
    }
  });
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ message: err.message });
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** GET `url` to the end or to the cut: status, headers, body, and whether the message arrived whole. */
function fetchAll(url: string): Promise<{ status: number; type: string | undefined; body: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => undefined);
        res.on('close', () =>
          resolve({ status: res.statusCode!, type: res.headers['content-type'], body: Buffer.concat(chunks), complete: res.complete }),
        );
      })
      .on('error', reject);
  });
}

describe('statistics: Excel streaming', function () {
  this.timeout(60_000);

  it('when 50,000 rows stream in with a 20,000-row sheet limit, then sheets 이름, 이름 (2), 이름 (3) hold them row for row under their headers', async () => {
    const s = source(50_000);
    const sheets = await sheetsOf(await workbookBytes(COLUMNS, s.rows, { sheetName: '이름', maxRowsPerSheet: 20_000 }));
    expect(sheets.map((x) => x.name)).to.deep.equal(['이름', '이름 (2)', '이름 (3)']);
    expect(sheets.map((x) => x.aoa.length)).to.deep.equal([20_000, 20_000, 50_000 - 2 * 19_999 + 1]);
    for (const x of sheets) expect(x.aoa[0]).to.deep.equal(['번호', '이름', '금액']);
    const back = sheets.flatMap((x) => x.aoa.slice(1));
    const expected = Array.from({ length: 50_000 }, (_, i) => cells(row(i)));
    const firstDifference = back.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(expected[i]));
    expect(firstDifference, `row ${firstDifference}: ${JSON.stringify(back[firstDifference])}`).to.equal(-1);
    expect(back).to.have.length(50_000);
  });

  it('when text holds markup, control characters or edge spaces and a number is not finite, then the text reads back (control characters dropped) and the number is an empty cell', async () => {
    interface T {
      a: string | null;
      b: number;
      c: string;
    }
    const columns: ExcelColumn<T>[] = [
      { header: 'A <&> "a"', value: (r) => r.a },
      { header: 'B', value: (r) => r.b },
      { header: 'C', value: (r) => r.c },
    ];
    const data: T[] = [
      { a: ' 앞뒤 공백 ', b: Number.NaN, c: '<b>굵게</b> & "인용"' },
      { a: null, b: Number.POSITIVE_INFINITY, c: 'tab\there\u0001\u0008bell\ud800' },
      { a: '0123', b: -1.25, c: '' },
    ];
    const [sheet] = await sheetsOf(await workbookBytes(columns, data, { sheetName: 'S' }));
    expect(sheet!.aoa).to.deep.equal([
      ['A <&> "a"', 'B', 'C'],
      [' 앞뒤 공백 ', null, '<b>굵게</b> & "인용"'],
      [null, null, 'tab\therebell'],
      // An empty text cell reads as an empty cell.
      ['0123', -1.25, null],
    ]);
  });

  it('when the rows fail midway, then the output is destroyed, the failure is thrown, and the bytes written are no workbook', async () => {
    const s = source(30_000, 20_000);
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _e, done) {
        chunks.push(chunk);
        done();
      },
    });
    const failure = await writeWorkbook(out, COLUMNS, s.rows, { sheetName: 'S' }).then(
      () => null,
      (err: Error) => err,
    );
    expect(failure?.message).to.equal('connection lost');
    expect(out.destroyed).to.equal(true);
    expect(out.writableFinished, 'the output was ended as if whole').to.equal(false);
    const unreadable = await readWorkbook(Buffer.concat(chunks)).then(
      () => null,
      (err: Error) => err,
    );
    expect(unreadable).to.be.instanceOf(Error);
  });

  it('when the output stalls and then fails (a slow client that went away), then reading the rows stops (the source is closed) and the failure is thrown', async () => {
    const s = source(50_000);
    let received = 0;
    const out = new Writable({
      write(chunk: Buffer, _e, done) {
        received += chunk.length;
        if (received < 64 * 1024) done();
        // Stalled: the writer fills every buffer up the chain and waits; then the client is gone.
        else setTimeout(() => out.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })), 300);
      },
    });
    const failure = await writeWorkbook(out, COLUMNS, s.rows, { sheetName: 'S' }).then(
      () => null,
      (err: Error) => err,
    );
    expect(failure?.message).to.equal('socket hang up');
    expect(s.closed()).to.equal(true);
    expect(s.pulled()).to.be.lessThan(50_000);
  });

  it('when the first row already fails, then the request answers as a normal error, not as an xlsx', async () => {
    const { logger } = capturedLogger();
    const server = await downloadServer(source(10, 0).rows, logger);
    try {
      const res = await fetchAll(server.url);
      expect(res.status).to.equal(500);
      expect(res.type).to.match(/^application\/json/);
      expect((JSON.parse(res.body.toString()) as { message: string }).message).to.equal('connection lost');
    } finally {
      server.close();
    }
  });

  it('when the rows fail after the response started, then the transfer is cut off (never a whole file) and the failure is logged', async () => {
    const { logger, entries } = capturedLogger();
    const server = await downloadServer(source(40_000, 30_000).rows, logger);
    try {
      const res = await fetchAll(server.url);
      expect(res.status).to.equal(200);
      expect(res.type).to.equal(XLSX_CONTENT_TYPE);
      expect(res.body.length).to.be.greaterThan(0);
      expect(res.complete).to.equal(false);
      expect(entries.filter((e) => e.level === 'error').map((e) => e.message)).to.deep.equal([
        'Excel download failed after the response started',
      ]);
    } finally {
      server.close();
    }
  });
});
