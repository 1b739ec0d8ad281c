import { expect } from 'chai';
import { parseOptions } from '../src/options.ts';

describe('bench options', () => {
  it('when no database is named, then each scale has its own (a small run keeps the full data set)', () => {
    const small = parseOptions(['--scale', 'small'], {});
    const full = parseOptions(['--scale', 'full'], {});
    expect([small.boDb, small.memberDb, small.dbPrefix]).to.deep.equal(['bench_small_bo', 'bench_small_member', 'bench_small']);
    expect([full.boDb, full.memberDb, full.dbPrefix]).to.deep.equal(['bench_full_bo', 'bench_full_member', 'bench_full']);
  });

  it('when a prefix or a database is named, then it is used at every scale', () => {
    const o = parseOptions(['--scale', 'small', '--db-prefix', 'mine', '--member-db', 'other_member'], {});
    expect([o.boDb, o.memberDb, o.dbPrefix]).to.deep.equal(['mine_bo', 'other_member', 'mine']);
  });
});
