import { expect } from 'chai';
import { addMonths, formatInZone, monthPieces, monthStart, nextMonthStart, platformNowMillis, platformToday } from '../src/index.ts';

// Expected texts worked out by hand from the zones' offsets (Seoul +09:00 all year; New York
// -05:00, -04:00 from 2026-03-08 02:00 local), not from Intl.
describe('platform time: instants in the platform zone', () => {
  it('formats an instant in the zone it is asked for', () => {
    expect(formatInZone(new Date('2026-11-24T14:59:59Z'), 'Asia/Seoul')).to.equal('2026-11-24 23:59:59');
    expect(formatInZone(new Date('2026-11-24T15:00:00Z'), 'Asia/Seoul')).to.equal('2026-11-25 00:00:00');
    expect(platformToday('Asia/Seoul', new Date('2026-12-31T15:00:00Z'))).to.equal('2027-01-01');
    expect(formatInZone(new Date('2026-03-08T06:59:59Z'), 'America/New_York')).to.equal('2026-03-08 01:59:59');
    expect(formatInZone(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).to.equal('2026-03-08 03:00:00');
  });

  it('keeps the second it remembers apart per zone and per second', () => {
    // The same second in two zones, then back: a memo keyed by the second alone answers Seoul's text for New York.
    const instant = new Date('2026-11-25T01:02:03.250Z');
    expect(formatInZone(instant, 'Asia/Seoul')).to.equal('2026-11-25 10:02:03');
    expect(formatInZone(instant, 'America/New_York')).to.equal('2026-11-24 20:02:03');
    expect(formatInZone(new Date('2026-11-25T01:02:03.999Z'), 'Asia/Seoul')).to.equal('2026-11-25 10:02:03');
    // The next second, and one a day later at the same clock second.
    expect(formatInZone(new Date('2026-11-25T01:02:04.000Z'), 'Asia/Seoul')).to.equal('2026-11-25 10:02:04');
    expect(formatInZone(new Date('2026-11-26T01:02:04.000Z'), 'Asia/Seoul')).to.equal('2026-11-26 10:02:04');
    // Milliseconds come from the instant, not from the remembered second.
    expect(platformNowMillis('Asia/Seoul', new Date('2026-11-26T01:02:04.007Z'))).to.equal('2026-11-26 10:02:04.007');
    expect(platformNowMillis('Asia/Seoul', new Date('2026-11-26T01:02:04.993Z'))).to.equal('2026-11-26 10:02:04.993');
  });

  it('formats instants before 1970 (negative epoch seconds) by their own second', () => {
    expect(formatInZone(new Date('1969-12-31T14:59:59.500Z'), 'Asia/Seoul')).to.equal('1969-12-31 23:59:59');
    expect(formatInZone(new Date('1969-12-31T15:00:00.000Z'), 'Asia/Seoul')).to.equal('1970-01-01 00:00:00');
  });
});

// Month ends written out by hand (a leap February, a year end), not from the calendar code.
describe('platform time: ranges cut at month ends', () => {
  it('cuts a range into the pieces of each month it touches, first and last day included', () => {
    expect(monthPieces('2028-01-30', '2028-03-02')).to.deep.equal([
      { first: '2028-01-30', last: '2028-01-31' },
      { first: '2028-02-01', last: '2028-02-29' },
      { first: '2028-03-01', last: '2028-03-02' },
    ]);
    expect(monthPieces('2026-12-31', '2027-01-01')).to.deep.equal([
      { first: '2026-12-31', last: '2026-12-31' },
      { first: '2027-01-01', last: '2027-01-01' },
    ]);
    expect(monthPieces('2026-02-01', '2026-02-28')).to.deep.equal([{ first: '2026-02-01', last: '2026-02-28' }]);
    expect(monthPieces('2026-06-15', '2026-06-15')).to.deep.equal([{ first: '2026-06-15', last: '2026-06-15' }]);
  });

  it("names a month by its first day, from a day or a month, across a year's end", () => {
    expect(monthStart('2028-02-29')).to.equal('2028-02-01');
    expect(monthStart('2026-12')).to.equal('2026-12-01');
    expect(monthStart(addMonths('2026-12-31', 1))).to.equal('2027-01-01');
    expect(monthStart(addMonths('2027-01-15', -1))).to.equal('2026-12-01');
    // As a map callback the index must not shift the month.
    expect(['2026-03-31', '2026-04-01'].map(monthStart)).to.deep.equal(['2026-03-01', '2026-04-01']);
  });

  it("names the first day of the month after, from a day or a month, across a year's end", () => {
    expect(nextMonthStart('2026-12-31')).to.equal('2027-01-01');
    expect(nextMonthStart('2026-12')).to.equal('2027-01-01');
    expect(nextMonthStart('2028-01-31')).to.equal('2028-02-01');
    expect(nextMonthStart('2028-02-29')).to.equal('2028-03-01');
    expect(['2026-03-31', '2026-04-01'].map(nextMonthStart)).to.deep.equal(['2026-04-01', '2026-05-01']);
  });
});
