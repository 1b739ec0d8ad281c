import { expect } from 'chai';
import { previousLocalDay, recentLocalDays, recentLocalHours } from '../src/aggregation/schedule-targets.ts';

/**
 * Issue 17.6: what the daily (09:00) and hourly runs resolve at Seoul midnight, from instants
 * written in UTC so no process time zone takes part (the same file runs under a foreign TZ in
 * tests/system/test/process-time-zone.test.ts).
 */
const SEOUL = 'Asia/Seoul';
const LAST_MS = new Date('2026-03-31T14:59:59.999Z'); // 2026-03-31 23:59:59.999 in Seoul
const MIDNIGHT = new Date('2026-03-31T15:00:00.000Z'); // 2026-04-01 00:00:00.000 in Seoul

describe('schedule targets at Seoul midnight', () => {
  it('when a run resolves at 23:59:59.999, then the previous day is 30 Mar and the hour just ended is 31 Mar 22h', () => {
    expect(previousLocalDay(SEOUL, LAST_MS)).to.equal('2026-03-30');
    expect(recentLocalDays(SEOUL, LAST_MS, 2)).to.deep.equal(['2026-03-29', '2026-03-30']);
    expect(recentLocalHours(SEOUL, LAST_MS, 2)).to.deep.equal([
      { day: '2026-03-31', hour: 21 },
      { day: '2026-03-31', hour: 22 },
    ]);
  });

  it('when a run resolves at 00:00:00.000, then the previous day is 31 Mar (across a month end) and the hour just ended is 31 Mar 23h', () => {
    expect(previousLocalDay(SEOUL, MIDNIGHT)).to.equal('2026-03-31');
    expect(recentLocalDays(SEOUL, MIDNIGHT, 2)).to.deep.equal(['2026-03-30', '2026-03-31']);
    expect(recentLocalHours(SEOUL, MIDNIGHT, 2)).to.deep.equal([
      { day: '2026-03-31', hour: 22 },
      { day: '2026-03-31', hour: 23 },
    ]);
  });

  it('when the platform zone is UTC instead, then the same instants resolve nine hours earlier', () => {
    expect(previousLocalDay('UTC', MIDNIGHT)).to.equal('2026-03-30');
    expect(recentLocalHours('UTC', MIDNIGHT, 1)).to.deep.equal([{ day: '2026-03-31', hour: 14 }]);
  });
});
