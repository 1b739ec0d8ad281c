import { expect } from 'chai';
import { Type } from '@sinclair/typebox';
import { compileValidator, createAjv, DateString, DateTimeString, MonthString, StringList } from '../src/index.ts';

const ajv = createAjv();
const check = (schema: ReturnType<typeof DateString>) => {
  const validate = compileValidator(ajv, schema);
  return (value: string) => validate(value).ok;
};

describe('contracts formats', () => {
  describe('date (yyyy-MM-dd)', () => {
    const isDate = check(DateString());

    it('when the day exists in the calendar, then it is accepted', () => {
      for (const day of ['2026-01-31', '2026-02-28', '2024-02-29', '2026-12-31']) expect(isDate(day), day).to.equal(true);
    });

    it('when the day does not exist (2026-02-30, 2025-02-29, 2026-04-31), then it is refused', () => {
      for (const day of ['2026-02-30', '2025-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00'])
        expect(isDate(day), day).to.equal(false);
    });

    it('when the text is not exactly yyyy-MM-dd, then it is refused', () => {
      for (const day of ['2026-2-3', '20260203', '2026/02/03', '2026-02-03T00:00:00', ' 2026-02-03', ''])
        expect(isDate(day), day).to.equal(false);
    });

    it('when the year is outside 1900–2999 (where day arithmetic on the text stops comparing right), then it is refused', () => {
      for (const day of ['0000-01-01', '0999-12-31', '1000-01-01', '1899-12-31', '3000-01-01', '9999-12-31'])
        expect(isDate(day), day).to.equal(false);
      for (const day of ['1900-01-01', '2999-12-31']) expect(isDate(day), day).to.equal(true);
    });
  });

  describe('month (yyyy-MM)', () => {
    const isMonthText = check(MonthString());

    it('when the month is 01..12, then it is accepted', () => {
      for (const m of ['2026-01', '2026-09', '2026-12']) expect(isMonthText(m), m).to.equal(true);
    });

    it('when the month is 13, 00 or not two digits, then it is refused', () => {
      for (const m of ['2026-13', '2026-00', '2026-1', '2026-05-01', '202605', '']) expect(isMonthText(m), m).to.equal(false);
    });

    it('when the year is outside 1900–2999, then it is refused', () => {
      for (const m of ['0000-01', '1899-12', '3000-01', '9999-12']) expect(isMonthText(m), m).to.equal(false);
    });
  });

  describe('date-time (yyyy-MM-dd HH:mm:ss or ISO 8601)', () => {
    const isDateTime = check(DateTimeString());

    it('when the text is a real local or ISO date-time, then it is accepted', () => {
      for (const t of [
        '2026-05-01 10:00:00',
        '2026-05-01T10:00:00',
        '2026-05-01T10:00',
        '2026-05-01T23:59:59.123Z',
        '2026-05-01T10:00:00+09:00',
        '2026-05-01',
      ])
        expect(isDateTime(t), t).to.equal(true);
    });

    it('when the day or the time does not exist, then it is refused', () => {
      for (const t of [
        '2026-02-30 10:00:00',
        '2026-04-31T00:00:00',
        '2026-05-01 24:00:00',
        '2026-05-01 10:60:00',
        '2026-05-01 10:00:61',
        '2026-05-01 1:00:00',
        'yesterday',
      ])
        expect(isDateTime(t), t).to.equal(false);
    });
  });

  describe('query coercion', () => {
    it('when query text is validated with coercion, then integers become numbers and a single value becomes a list', () => {
      const validate = compileValidator<{ n: number; list: string[] }>(
        createAjv({ coerce: true }),
        Type.Object({ n: Type.Integer(), list: StringList('codes') }),
      );
      const result = validate({ n: '42', list: 'a' });
      expect(result).to.deep.equal({ ok: true, value: { n: 42, list: ['a'] } });
    });

    it('when a body is validated without coercion, then text where a number belongs is refused naming the field', () => {
      const validate = compileValidator(createAjv(), Type.Object({ amount: Type.Integer() }));
      expect(validate({ amount: '42' })).to.deep.equal({ ok: false, errors: [{ field: 'amount', message: 'must be integer' }] });
    });
  });

  describe('field errors', () => {
    const validate = compileValidator(
      createAjv(),
      Type.Object(
        {
          goodsNo: Type.String({ minLength: 1 }),
          startDate: DateString(),
          agrtGb: Type.Union([Type.Literal('01'), Type.Literal('02')]),
          inner: Type.Object({ code: Type.String() }),
        },
        { additionalProperties: false },
      ),
    );

    it('when several rules fail, then each failure names its field as the client sent it', () => {
      const result = validate({ goodsNo: '', startDate: '2026-02-30', agrtGb: '03', inner: {}, extra: 1 });
      expect(result.ok).to.equal(false);
      const errors = result.ok ? [] : result.errors;
      expect(errors).to.deep.include.members([
        { field: 'goodsNo', message: 'must NOT have fewer than 1 characters' },
        { field: 'startDate', message: 'must be a valid date' },
        { field: 'agrtGb', message: 'must be one of "01", "02"' },
        { field: 'inner.code', message: 'is required' },
        { field: 'extra', message: 'is not a known field' },
      ]);
      expect(errors).to.have.length(5);
    });
  });

  describe('numbers', () => {
    it('when a JSON body number parses to Infinity (1e400), then it is refused even without bounds', () => {
      const validate = compileValidator(createAjv(), Type.Object({ n: Type.Number() }));
      expect(validate(JSON.parse('{"n": 1e400}')).ok).to.equal(false);
      expect(validate(JSON.parse('{"n": 12.5}')).ok).to.equal(true);
    });
  });
});
