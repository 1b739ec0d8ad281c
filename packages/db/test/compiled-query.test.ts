import { expect } from 'chai';
import { bind, compiledRead, createKnex, planValues, type Knex, type Render } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '@bo/testing';

interface Row {
  id: number;
  name: string;
  tag: string | null;
}

/** A read whose text depends on which filters are given: the shape of its plan. */
interface Plan {
  tag?: string;
  names: string[];
  from: number;
  limit?: number;
}

describe('compiledRead: SQL built once per shape, bound per call', () => {
  let db: TestDatabase;
  let renders: number;
  // One function for the process, as the contract asks; it counts its calls.
  const render: Render<Plan> = (knex, plan) => {
    renders++;
    const q = knex.select('id', 'name', 'tag').from('t').where('id', '>=', plan.from).orderBy('id');
    if (plan.tag !== undefined) q.where('tag', plan.tag);
    if (plan.names.length) q.whereIn('name', plan.names);
    if (plan.limit !== undefined) q.limit(plan.limit);
    return q;
  };
  /** The query built the ordinary way, with the plan's values (not counted as a compile). */
  const built = (plan: Plan) => {
    const q = render(db.knex, planValues(plan));
    renders--;
    return q as unknown as Promise<Row[]>;
  };

  // Values as people type them, including the ones that trip hand-made SQL.
  const NAMES = ["O'Reilly", '50% 할인?', 'back\\slash', '"quoted"', '?', '-- not a comment', '가나다', 'plain'];

  before(async () => {
    db = await createTestDatabase('db_compiled', []);
    await db.knex.schema.createTable('t', (t) => {
      t.integer('id').primary();
      t.string('name', 40).notNullable();
      t.string('tag', 10).nullable();
    });
    await db.knex('t').insert(NAMES.map((name, i) => ({ id: i + 1, name, tag: i % 2 ? 'odd' : i % 4 ? null : 'four' })));
  });
  after(() => db?.drop());
  beforeEach(() => {
    renders = 0;
  });

  it('when plans of one shape carry other values, then each answers what the query built for it answers, from one render', async () => {
    const plans: Plan[] = NAMES.map((name, i) => ({ names: [bind(name), bind(NAMES[(i + 3) % NAMES.length]!)], from: bind(i) }));
    for (const plan of plans) {
      const rows = await compiledRead<Row, Plan>(db.knex, plan, render);
      expect(rows, JSON.stringify(planValues(plan)))
        .to.deep.equal(await built(plan))
        .and.to.have.length.greaterThan(0);
    }
    expect(renders).to.equal(1);
  });

  it('when a filter is given or left out, or a list is longer, then that is another shape with its own SQL', async () => {
    const shapes: Plan[] = [
      { names: [], from: bind(0) },
      { tag: bind('odd'), names: [], from: bind(0) },
      { names: [bind('plain')], from: bind(0) },
      { names: [bind('plain'), bind("O'Reilly")], from: bind(0) },
      { names: [], from: bind(0), limit: 2 },
      { names: [], from: bind(0), limit: 3 },
    ];
    for (const plan of shapes) expect(await compiledRead<Row, Plan>(db.knex, plan, render)).to.deep.equal(await built(plan));
    const before = renders;
    for (const plan of shapes) await compiledRead<Row, Plan>(db.knex, plan, render);
    expect(renders, 'a second read of each shape renders nothing').to.equal(before);
    // The tag filter really is bound: another value of the same shape answers other rows.
    const four = await compiledRead<Row, Plan>(db.knex, { tag: bind('four'), names: [], from: bind(0) }, render);
    expect(four.map((r) => r.tag)).to.deep.equal(['four', 'four']);
  });

  it('when a render writes a bound value into the SQL, derives a binding from one, or leaves one out, then it is refused, not cached wrong', async () => {
    const inlined: Render<{ name: string }> = (knex, plan) => knex.select('id').from('t').whereRaw(`name = '${plan.name}'`);
    const derived: Render<{ name: string }> = (knex, plan) => knex.select('id').from('t').where('name', 'like', `${plan.name}%`);
    const ignored: Render<{ name: string }> = (knex) => knex.select('id').from('t');
    const refusal = async (r: Render<{ name: string }>) => {
      try {
        await compiledRead(db.knex, { name: bind('plain') }, r);
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    expect(await refusal(inlined)).to.match(/into the SQL text/);
    expect(await refusal(derived)).to.match(/made from a bound value/);
    expect(await refusal(ignored)).to.match(/left a bound value/);
  });

  it('when a transaction or a pool reads the same shape, then both get their rows (the cache is per render, not per connection)', async () => {
    const plan: Plan = { tag: bind('odd'), names: [], from: bind(2) };
    const outside = await compiledRead<Row, Plan>(db.knex, plan, render);
    const inside = await db.knex.transaction((trx: Knex.Transaction) => compiledRead<Row, Plan>(trx, plan, render));
    expect(inside)
      .to.deep.equal(outside)
      .and.to.deep.equal(await built(plan));
  });

  it('when a transaction reads, then it reads on its own connection: it sees its uncommitted row, the pool does not', async () => {
    const plan: Plan = { tag: bind('fresh'), names: [], from: bind(0) };
    await db.knex
      .transaction(async (trx: Knex.Transaction) => {
        await trx('t').insert({ id: 100, name: 'uncommitted', tag: 'fresh' });
        expect((await compiledRead<Row, Plan>(trx, plan, render)).map((r) => r.id)).to.deep.equal([100]);
        expect(await compiledRead<Row, Plan>(db.knex, plan, render)).to.deep.equal([]);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).to.equal('roll back'));
    expect(await compiledRead<Row, Plan>(db.knex, plan, render)).to.deep.equal([]);
  });

  it('when someone listens to knex’s query events, then a compiled read is seen with its SQL and values (the bench captures SQL so)', async () => {
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const listen = (q: { sql: string; bindings: unknown[] }) => seen.push(q);
    db.knex.on('query', listen);
    try {
      await compiledRead<Row, Plan>(db.knex, { tag: bind('odd'), names: [bind("O'Reilly")], from: bind(3) }, render);
    } finally {
      db.knex.removeListener('query', listen);
    }
    expect(seen).to.have.length(1);
    expect(seen[0]!.sql).to.match(/^select `id`, `name`, `tag` from `t`/);
    expect(seen[0]!.bindings).to.include.members([3, 'odd', "O'Reilly"]);
  });

  it('when reads fail or run many at once, then every pooled connection comes back (a pool of 20 serves 200 reads after 40 failures)', async () => {
    const missing: Render<{ from: number }> = (knex, plan) => knex.select('id').from('no_such_table').where('id', '>=', plan.from);
    for (let i = 0; i < 40; i++) {
      const err = await compiledRead(db.knex, { from: bind(i) }, missing).then(
        () => undefined,
        (e: Error & { code?: string }) => e,
      );
      expect(err?.code, 'the server’s error reaches the caller').to.equal('ER_NO_SUCH_TABLE');
    }
    const plans: Plan[] = Array.from({ length: 200 }, (_, i) => ({ names: [], from: bind(i % NAMES.length) }));
    const answers = await Promise.all(plans.map((plan) => compiledRead<Row, Plan>(db.knex, plan, render)));
    // ids run 1..8: from 0 and 1 both answer all eight.
    answers.forEach((rows, i) => expect(rows).to.have.length(NAMES.length - Math.max(0, (i % NAMES.length) - 1)));
  });
  describe('sent as a prepared statement', () => {
    const status = async (name: string): Promise<number> => {
      const [rows] = (await db.knex.raw('SHOW GLOBAL STATUS LIKE ?', [name])) as [{ Value: string }[]];
      return Number(rows[0]?.Value);
    };
    /** A pool of one connection of its own: what it prepares is counted apart from the shared pool's. */
    const onePool = () => createKnex(db.url, { poolMax: 1 });

    it('when one connection reads a shape many times, then the server prepares it once and executes it each time', async () => {
      const knex = onePool();
      try {
        const plan = (from: number): Plan => ({ tag: bind('odd'), names: [], from: bind(from) });
        await compiledRead<Row, Plan>(knex, plan(0), render);
        const [prepared, executed] = [await status('Prepared_stmt_count'), await status('Com_stmt_execute')];
        for (let i = 1; i <= 5; i++) expect(await compiledRead<Row, Plan>(knex, plan(i), render)).to.deep.equal(await built(plan(i)));
        expect(await status('Prepared_stmt_count'), 'no statement prepared again').to.equal(prepared);
        expect((await status('Com_stmt_execute')) - executed, 'every read executed the prepared statement').to.be.at.least(5);
      } finally {
        await knex.destroy();
      }
    });

    // Typed by hand as the text protocol writes them: any number as a DOUBLE would turn 7 / 3 and
    // 0.1 + 0.2 into floating point, which no figure of a report may be.
    it('when numbers are bound (whole, the largest exact, fractions, negative) or text that looks like one, then the answer is the text query’s to the last digit', async () => {
      interface Numbers {
        whole: number;
        big: number;
        tenth: number;
        fifth: number;
        negative: number;
        digits: string;
      }
      const arithmetic: Render<Numbers> = (knex, p) =>
        knex
          .select(
            knex.raw(
              "? / 3 AS third, ? + 1 AS bigPlusOne, ? + ? AS tenthsSum, ? * 100 AS negativeTimes, CONCAT(?, '') AS digits, ? = 9007199254740993 AS digitsExact",
              [p.whole, p.big, p.tenth, p.fifth, p.negative, p.digits, p.digits],
            ),
          )
          .from('t')
          .limit(1);
      const values = { whole: 7, big: 2 ** 53 - 1, tenth: 0.1, fifth: 0.2, negative: -12.5, digits: '9007199254740993' };
      const plan: Numbers = {
        whole: bind(values.whole),
        big: bind(values.big),
        tenth: bind(values.tenth),
        fifth: bind(values.fifth),
        negative: bind(values.negative),
        digits: bind(values.digits),
      };
      const asText = (await arithmetic(db.knex, values)) as unknown as Record<string, unknown>[];
      const rows = await compiledRead<Record<string, unknown>, Numbers>(db.knex, plan, arithmetic);
      expect(rows).to.deep.equal(asText);
      expect(rows[0]).to.include({ third: 2.3333, tenthsSum: 0.3, negativeTimes: -1250 });
    });

    it('when the server is at its limit of prepared statements, then the read is sent as text and still answers', async () => {
      const limit = await status('Prepared_stmt_count').then(async () => {
        const [rows] = (await db.knex.raw('SELECT @@GLOBAL.max_prepared_stmt_count AS n')) as [{ n: number }[]];
        return rows[0]!.n;
      });
      const knex = onePool();
      await db.knex.raw('SET GLOBAL max_prepared_stmt_count = 0');
      try {
        const plan: Plan = { tag: bind('four'), names: [], from: bind(0) };
        expect(await compiledRead<Row, Plan>(knex, plan, render)).to.deep.equal(await built(plan));
      } finally {
        await db.knex.raw('SET GLOBAL max_prepared_stmt_count = ?', [limit]);
        await knex.destroy();
      }
    });
  });
});
