import { expect } from 'chai';
import { boSourceMigrations } from '@bo/db';
import { createTestDatabase, type TestDatabase } from '@bo/testing';
import { openSink, tsv, type LoadMethod } from '../src/row-sink.ts';

/** Text that breaks naive TSV or SQL quoting. */
const TRICKY = [
  '세탁\t방법:\n찬물 손세탁',
  'it\'s "quoted" \\ backslash \\N not null',
  'C:\\temp\\new\\table\r\nline',
  '',
  '한글 ✓ emoji 👍',
];

describe('row sinks', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('sink', boSourceMigrations);
  });
  after(async () => db?.drop());

  for (const method of ['load-data', 'insert'] as LoadMethod[]) {
    it(`when text with tabs, line breaks, quotes, backslashes and NULL goes through ${method}, then it reads back unchanged`, async () => {
      const sink = openSink(db.knex, method, 'goods_qna', [
        'quest_no',
        'site_no',
        'mbr_no',
        'goods_no',
        'entr_no',
        'quest_title',
        'quest_cont',
        'quest_dtm',
        'proc_stat_cd',
        'proc_stat_dtm',
      ]);
      const base = method === 'insert' ? 100 : 0;
      for (const [i, text] of TRICKY.entries()) {
        await sink.write(
          `${base + i + 1}\tS001\tM1\tGD0001\tE0001\t${tsv(text)}\t${tsv(i === 3 ? null : text)}\t2025-03-01 10:00:00\t10\t\\N\n`,
        );
      }
      await sink.close();
      expect(sink.rows).to.equal(TRICKY.length);
      const [rows] = (await db.knex.raw(
        'SELECT quest_title, quest_cont, proc_stat_dtm FROM goods_qna WHERE quest_no > ? AND quest_no <= ? ORDER BY quest_no',
        [base, base + 100],
      )) as [{ quest_title: string; quest_cont: string | null; proc_stat_dtm: string | null }[]];
      expect(rows.map((r) => r.quest_title)).to.deep.equal(TRICKY);
      expect(rows.map((r) => r.quest_cont)).to.deep.equal(TRICKY.map((t, i) => (i === 3 ? null : t)));
      expect(rows.every((r) => r.proc_stat_dtm === null)).to.equal(true);
    });
  }

  it('when a row breaks a key, then closing the LOAD DATA sink fails instead of dropping rows silently', async () => {
    const sink = openSink(db.knex, 'load-data', 'site', ['site_no', 'site_nm']);
    await sink.write('S9\tone\n');
    await sink.write('S9\ttwo\n');
    let error: Error | undefined;
    await sink.close().catch((e: Error) => (error = e));
    expect(error?.message).to.match(/Duplicate|stored 1 of 2/);
  });

  it('when several LOAD DATA sinks end their statements at the same moment with data still queued, then every statement stores all its rows', async function () {
    // mysql2 before 3.24.6 ended every LOAD DATA with one shared 4-byte packet whose sequence
    // number each connection rewrote; one still queued behind its data left with another's
    // number, and the server dropped that connection ("Got packets out of order").
    this.timeout(120_000);
    await db.knex.raw('CREATE TABLE sink_race (sink_no INT NOT NULL, row_no INT NOT NULL, pad VARCHAR(200) NOT NULL)');
    const pad = '가'.repeat(60);
    for (let round = 0; round < 12; round++) {
      await db.knex.raw('TRUNCATE TABLE sink_race');
      // Different row counts per sink, so their packet sequence numbers differ at the end.
      const counts = [40_000, 43_001, 46_017, 49_999];
      const sinks = counts.map(() => openSink(db.knex, 'load-data', 'sink_race', ['sink_no', 'row_no', 'pad']));
      for (let row = 0; row < Math.max(...counts); row++) {
        for (const [s, sink] of sinks.entries()) if (row < counts[s]!) await sink.write(`${s}\t${row}\t${pad}\n`);
      }
      await Promise.all(sinks.map((sink) => sink.close()));
      const [stored] = (await db.knex.raw('SELECT sink_no, COUNT(*) AS n FROM sink_race GROUP BY sink_no ORDER BY sink_no')) as [
        { sink_no: number; n: number }[],
      ];
      expect(
        stored.map((r) => Number(r.n)),
        `round ${round}`,
      ).to.deep.equal(counts);
    }
  });
});
