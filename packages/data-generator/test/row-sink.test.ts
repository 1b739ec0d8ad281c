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
});
