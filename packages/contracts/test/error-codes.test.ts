import { expect } from 'chai';
import { DECLARED_FAILURE_STATUS, ERRORS } from '../src/index.ts';

const entries = Object.entries(ERRORS) as [string, { code: string; message: string; httpStatus: number }][];

describe('error-code catalogue', () => {
  it('when the catalogue is read, then every code is unique', () => {
    const codes = entries.map(([, e]) => e.code);
    const duplicates = codes.filter((c, i) => codes.indexOf(c) !== i);
    expect(duplicates).to.deep.equal([]);
  });

  it('when the spec codes are looked up, then 6101 is the unknown or non-staff member and 6102 the insufficient limit', () => {
    const byCode = new Map(entries.map(([name, e]) => [e.code, { name, ...e }]));
    expect(byCode.get('6101')).to.include({ name: 'STAFF_NOT_FOUND', httpStatus: 404 });
    expect(byCode.get('6102')).to.include({ name: 'LIMIT_INSUFFICIENT' });
    expect(byCode.get('6102')?.httpStatus).to.be.within(400, 499);
  });

  it('when any entry is read, then it has a four-digit code of a known group, a message and a conventional HTTP status', () => {
    for (const [name, e] of entries) {
      expect(e.code, name).to.match(/^[12356]\d{3}$/);
      expect(e.message.trim(), name).to.not.equal('');
      expect(e.httpStatus, name).to.be.within(400, 599);
    }
  });

  it('when a failure is declared, then it answers the spec status 900', () => {
    expect(DECLARED_FAILURE_STATUS).to.equal(900);
  });
});
