import { expect } from 'chai';
import { SharedReads } from '../src/index.ts';

/** A read the test finishes by hand; `started` counts the runs, in order. */
function manualReads() {
  const runs: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  let value = 0;
  const read = () =>
    new Promise<number>((resolve, reject) => {
      runs.push({ resolve, reject });
    });
  return {
    read,
    runs,
    /** Finish run i with the value the "database" holds now. */
    finish: (i: number) => runs[i]!.resolve(value),
    write: (v: number) => (value = v),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

/** The error a promise rejects with (fails when it resolves). */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('SharedReads: identical reads arriving together share one run started after each arrived', () => {
  it('when nothing runs, then the first caller starts a run of its own', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const a = reads.run('k', m.read);
    await tick();
    expect(m.runs).to.have.length(1);
    m.write(7);
    m.finish(0);
    expect(await a).to.equal(7);
    expect(reads.size).to.equal(0);
  });

  it('when a run is under way, then later callers wait for one new run and share it, never the one under way', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const first = reads.run('k', m.read);
    await tick();
    // A write lands after the first run read its snapshot, then three identical requests arrive.
    const late = [reads.run('k', m.read), reads.run('k', m.read), reads.run('k', m.read)];
    await tick();
    expect(m.runs, 'the late callers do not start runs of their own').to.have.length(1);
    m.finish(0); // the first run answers from before the write
    m.write(8);
    await tick();
    expect(m.runs, 'one run for the three late callers').to.have.length(2);
    m.finish(1);
    expect(await first).to.equal(0);
    expect(await Promise.all(late)).to.deep.equal([8, 8, 8]);
    expect(reads.size).to.equal(0);
  });

  it('when identical requests arrive in one turn of the event loop with nothing running, then they share one run', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const burst = [reads.run('k', m.read), reads.run('k', m.read), reads.run('k', m.read)];
    await tick();
    expect(m.runs, 'one run for the burst').to.have.length(1);
    m.write(5);
    m.finish(0);
    expect(await Promise.all(burst)).to.deep.equal([5, 5, 5]);
  });

  it('when the keys differ, then the reads run side by side', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const a = reads.run('a', m.read);
    const b = reads.run('b', m.read);
    await tick();
    expect(m.runs).to.have.length(2);
    m.finish(0);
    m.finish(1);
    await Promise.all([a, b]);
  });

  it('when the run under way fails, then the queued callers still get a run of their own', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const first = reads.run('k', m.read);
    await tick();
    const late = reads.run('k', m.read);
    m.runs[0]!.reject(new Error('deadlock'));
    expect((await rejection(first)).message).to.equal('deadlock');
    await tick();
    m.write(3);
    m.finish(1);
    expect(await late).to.equal(3);
  });

  it('when a shared run fails, then every caller of that run gets the error and the next caller starts afresh', async () => {
    const reads = new SharedReads<number>();
    const m = manualReads();
    const first = reads.run('k', m.read);
    await tick();
    const late = [reads.run('k', m.read), reads.run('k', m.read)];
    m.finish(0);
    await first;
    await tick();
    m.runs[1]!.reject(new Error('lost connection'));
    for (const p of late) expect((await rejection(p)).message).to.equal('lost connection');
    const again = reads.run('k', m.read);
    await tick();
    expect(m.runs).to.have.length(3);
    m.finish(2);
    await again;
  });

  it('when the read throws before returning a promise, then the caller gets a rejection, not a throw', async () => {
    const reads = new SharedReads<number>();
    const p = reads.run('k', () => {
      throw new Error('bad key');
    });
    expect((await rejection(p)).message).to.equal('bad key');
  });
});
