import { Writable } from 'node:stream';
import { writeWorkbook, type ExcelColumn, type WorkbookOptions } from '../../../src/statistics/excel/excel-writer.ts';

/** Everything a Writable received, in order. */
export function collector(): { out: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

/** The workbook `writeWorkbook` streams, as one buffer. */
export async function workbookBytes<R>(
  columns: readonly ExcelColumn<R>[],
  rows: AsyncIterable<R> | Iterable<R>,
  options: WorkbookOptions,
): Promise<Buffer> {
  const { out, bytes } = collector();
  await writeWorkbook(out, columns, rows, options);
  return bytes();
}
