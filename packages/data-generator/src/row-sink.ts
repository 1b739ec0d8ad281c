import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Knex } from '@bo/db';

/**
 * Where generated rows go. Rows arrive as TSV lines (the format of `LOAD DATA`: tab between
 * fields, `\N` for NULL, backslash escapes) so the hot loop only concatenates strings.
 * `write` returns a promise only when the caller has to wait (the database is behind).
 */
export interface RowSink {
  readonly table: string;
  readonly rows: number;
  write(line: string): Promise<void> | undefined;
  close(): Promise<void>;
}

export type LoadMethod = 'load-data' | 'insert';

/** One TSV field: NULL as `\N`, backslash, tab and line breaks escaped. */
export function tsv(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : value;
}

const BUFFER_CHARS = 1 << 18;
/**
 * mysql2 copies the file stream into the socket without waiting for it, so the generator is
 * held back here instead: past this many bytes queued for the server, wait for the socket.
 */
const SOCKET_BACKLOG = 8 << 20;

interface RawConnection {
  /** The socket to the server. */
  stream: NodeJS.WritableStream & { writableLength: number };
  query(
    options: { sql: string; infileStreamFactory?: () => NodeJS.ReadableStream },
    callback: (err: Error | null, result: { affectedRows: number }) => void,
  ): void;
}
interface KnexClient {
  acquireConnection(): Promise<RawConnection>;
  releaseConnection(connection: RawConnection): Promise<void>;
}
const clientOf = (knex: Knex) => knex.client as unknown as KnexClient;

const loadDataSql = (table: string, columns: readonly string[]) =>
  `LOAD DATA LOCAL INFILE '${table}.tsv' INTO TABLE \`${table}\` CHARACTER SET utf8mb4 ` +
  `FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' (${columns.map((c) => `\`${c}\``).join(', ')})`;

/**
 * Streams rows through `LOAD DATA LOCAL INFILE` on a connection of its own. A statement is
 * closed every `rowsPerStatement` rows so no single transaction grows without bound.
 */
class LoadDataSink implements RowSink {
  rows = 0;
  private buffer = '';
  private inStatement = 0;
  private connection: RawConnection | undefined;
  private stream: PassThrough | undefined;
  private statement: Promise<void> | undefined;

  constructor(
    private readonly knex: Knex,
    readonly table: string,
    private readonly columns: readonly string[],
    private readonly rowsPerStatement: number,
  ) {}

  write(line: string): Promise<void> | undefined {
    this.buffer += line;
    this.rows++;
    this.inStatement++;
    if (this.buffer.length < BUFFER_CHARS && this.inStatement < this.rowsPerStatement) return undefined;
    return this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.stream) await this.open();
    const writable = this.stream!.write(this.buffer);
    this.buffer = '';
    if (this.inStatement >= this.rowsPerStatement) return this.finishStatement();
    // A failed statement never drains: wait for whichever comes first.
    if (!writable) await Promise.race([once(this.stream!, 'drain'), this.statement]);
    const socket = this.connection!.stream;
    if (socket.writableLength > SOCKET_BACKLOG) await Promise.race([once(socket, 'drain'), this.statement]);
  }

  private async open(): Promise<void> {
    this.connection ??= await clientOf(this.knex).acquireConnection();
    const stream = new PassThrough({ highWaterMark: 1 << 22 });
    const expected = () => this.inStatement;
    this.stream = stream;
    this.statement = new Promise<void>((resolve, reject) => {
      this.connection!.query({ sql: loadDataSql(this.table, this.columns), infileStreamFactory: () => stream }, (err, result) => {
        if (err) return reject(err);
        if (result.affectedRows !== expected()) {
          return reject(new Error(`LOAD DATA into ${this.table} stored ${result.affectedRows} of ${expected()} rows`));
        }
        resolve();
      });
    });
    this.statement.catch(() => undefined);
  }

  private async finishStatement(): Promise<void> {
    if (!this.stream) return;
    this.stream.end(this.buffer);
    this.buffer = '';
    await this.statement;
    this.stream = undefined;
    this.statement = undefined;
    this.inStatement = 0;
  }

  async close(): Promise<void> {
    try {
      if (this.buffer.length > 0 && !this.stream) await this.open();
      await this.finishStatement();
    } finally {
      if (this.connection) await clientOf(this.knex).releaseConnection(this.connection);
      this.connection = undefined;
    }
  }
}

/** SQL literal of one TSV field. */
function sqlLiteral(field: string): string {
  if (field === '\\N') return 'NULL';
  const text = field.includes('\\')
    ? field.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c))
    : field;
  // eslint-disable-next-line no-control-regex -- NUL and Ctrl-Z are the characters MySQL's string-literal escapes (\0, \Z) exist for
  return `'${text.replace(/[\\'\0\n\r\x1a]/g, (c) => (c === '\0' ? '\\0' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\x1a' ? '\\Z' : `\\${c}`))}'`;
}

/**
 * Multi-row INSERTs, for servers that refuse `LOAD DATA LOCAL`. One statement is in flight
 * while the next batch is being generated.
 */
class InsertSink implements RowSink {
  rows = 0;
  private batch: string[] = [];
  private batchChars = 0;
  private inflight: Promise<void> = Promise.resolve();
  private readonly prefix: string;

  constructor(
    private readonly knex: Knex,
    readonly table: string,
    columns: readonly string[],
    private readonly batchRows: number,
  ) {
    this.prefix = `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES `;
  }

  write(line: string): Promise<void> | undefined {
    this.batch.push(line);
    this.batchChars += line.length;
    this.rows++;
    if (this.batch.length < this.batchRows && this.batchChars < 4 * BUFFER_CHARS) return undefined;
    return this.send();
  }

  private send(): Promise<void> {
    const values = this.batch.map((l) => `(${l.slice(0, -1).split('\t').map(sqlLiteral).join(',')})`).join(',');
    this.batch = [];
    this.batchChars = 0;
    const previous = this.inflight;
    this.inflight = previous.then(async () => {
      await this.knex.raw(this.prefix + values);
    });
    this.inflight.catch(() => undefined);
    return previous;
  }

  async close(): Promise<void> {
    if (this.batch.length > 0) await this.send();
    await this.inflight;
  }
}

export function openSink(knex: Knex, method: LoadMethod, table: string, columns: readonly string[]): RowSink {
  return method === 'load-data' ? new LoadDataSink(knex, table, columns, 1_000_000) : new InsertSink(knex, table, columns, 2000);
}

/**
 * `load-data` when the server and this connection accept `LOAD DATA LOCAL INFILE` (tried
 * with an empty file), else `insert`. When the server has it off, switching it on needs a
 * privileged user; that is tried once.
 */
export async function detectLoadMethod(knex: Knex): Promise<LoadMethod> {
  try {
    const [rows] = (await knex.raw('SELECT @@local_infile AS on_')) as [{ on_: number | string }[]];
    if (Number(rows[0]!.on_) !== 1) await knex.raw('SET GLOBAL local_infile = 1');
    const connection = await clientOf(knex).acquireConnection();
    try {
      await new Promise<void>((resolve, reject) =>
        connection.query({ sql: loadDataSql('site', ['site_no', 'site_nm']), infileStreamFactory: () => new PassThrough().end() }, (err) =>
          err ? reject(err) : resolve(),
        ),
      );
    } finally {
      await clientOf(knex).releaseConnection(connection);
    }
    return 'load-data';
  } catch {
    return 'insert';
  }
}
