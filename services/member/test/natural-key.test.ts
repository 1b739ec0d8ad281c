import { expect } from 'chai';
import request from 'supertest';
import { buildOpenApiDocument } from '@bo/contracts';
import { memberBaseMigrations, migrateLatest } from '@bo/db';
import { createTestDatabase, type TestDatabase } from '@bo/testing';
import { idempotencyKeysMigration } from '../src/migrations/0101-idempotency-keys.ts';
import { memberMigrations } from '../src/migrations/index.ts';
import { arrangeStaff, CHANGE_PATH, change, createMemberDatabase, historyOf, memberApp, remainingOf, type MemberApp } from './support.ts';

/**
 * Issue 17.5: a change sent twice without an Idempotency-Key (a caller's retry after a timeout)
 * must not be applied twice. Its natural key is the order benefit cost it is for: member,
 * direction, order, claim and cost sequence. Issue 18: a success tells the applied and the
 * remaining amount in headers, so a caller learns that an increase was capped.
 */
describe('dcLimIncDec: the natural key of a change and the amounts of its answer', () => {
  let db: TestDatabase;
  let member: MemberApp;
  const post = (body: object, key?: string) => {
    const req = request(member.app).post(CHANGE_PATH);
    if (key) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const amounts = (res: request.Response) => ({
    applied: res.headers['x-applied-amount'],
    remaining: res.headers['x-remaining-amount'],
    replayed: res.headers['idempotent-replayed'],
  });

  before(async () => {
    db = await createMemberDatabase('member_natkey');
    member = memberApp(db);
  });
  after(async () => {
    await member.close();
    await db.drop();
  });

  it('when the same decrease comes twice without a key, then it is applied once and the repeat replays the first answer', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N1', limAmt: 50_000, rmndAmt: 20_000 });
    const body = { mbrNo: 'N1', rsrvUseGbCd: '20', ocurAmt: 3_000, ordNo: 'ORD-N1', claimNo: 'CLM-1', ordFvrCostSeq: '2' };
    const first = await post(body);
    expect(first.status).to.equal(200);
    expect(amounts(first)).to.deep.equal({ applied: '3000', remaining: '17000', replayed: undefined });
    // Between the two, another order of the member uses some of the limit.
    expect((await post(change('N1', '20', 1_000, 'ORD-N1-OTHER'))).status).to.equal(200);
    const repeat = await post(body);
    expect(repeat.status).to.equal(200);
    expect(repeat.text).to.equal('');
    expect(amounts(repeat)).to.deep.equal({ applied: '3000', remaining: '17000', replayed: 'true' });
    expect(await remainingOf(db.knex, 'N1')).to.equal(16_000);
    expect((await historyOf(db.knex, 'N1')).map((h) => h.ord_no)).to.deep.equal(['ORD-N1', 'ORD-N1-OTHER']);
  });

  it('when a repeat comes after the balance fell below its amount, then it still replays the success, not 6102', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N2', limAmt: 10_000, rmndAmt: 5_000 });
    const body = change('N2', '20', 4_000, 'ORD-N2');
    expect((await post(body)).status).to.equal(200);
    const repeat = await post(body);
    expect(repeat.status).to.equal(200);
    expect(amounts(repeat).replayed).to.equal('true');
    expect(await remainingOf(db.knex, 'N2')).to.equal(1_000);
  });

  it('when claimNo and ordFvrCostSeq are absent once and empty once, then it is the same change', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N3', limAmt: 10_000, rmndAmt: 5_000 });
    expect((await post(change('N3', '20', 500, 'ORD-N3'))).status).to.equal(200);
    const repeat = await post({ ...change('N3', '20', 500, 'ORD-N3'), claimNo: '', ordFvrCostSeq: '' });
    expect(amounts(repeat).replayed).to.equal('true');
    expect(await historyOf(db.knex, 'N3')).to.have.length(1);
  });

  it('when the order is the same but the claim, the cost sequence, the direction or the member differ, then each is its own change', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N4', limAmt: 10_000, rmndAmt: 5_000 });
    await arrangeStaff(db.knex, { mbrNo: 'N4B', limAmt: 10_000, rmndAmt: 5_000 });
    const base = change('N4', '20', 100, 'ORD-N4');
    const bodies = [
      base,
      { ...base, claimNo: 'CLM-1' },
      { ...base, claimNo: 'CLM-2' },
      { ...base, ordFvrCostSeq: '1' },
      { ...base, rsrvUseGbCd: '10' },
      { ...base, mbrNo: 'N4B' },
    ];
    for (const body of bodies) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(amounts(res).replayed, JSON.stringify(body)).to.equal(undefined);
    }
    expect(await historyOf(db.knex, 'N4')).to.have.length(5);
    expect(await historyOf(db.knex, 'N4B')).to.have.length(1);
  });

  it('when the member number comes in other letter case, then it is still the same change (members are looked up case-insensitively)', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N5', limAmt: 10_000, rmndAmt: 5_000 });
    expect((await post(change('N5', '20', 700, 'ORD-N5'))).status).to.equal(200);
    expect(amounts(await post(change('n5', '20', 700, 'ORD-N5'))).replayed).to.equal('true');
    expect(await remainingOf(db.knex, 'N5')).to.equal(4_300);
  });

  it('when the same order benefit cost comes with another amount, then 900 with httpStatus 409 (6105) and nothing more is applied', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N6', limAmt: 10_000, rmndAmt: 5_000 });
    expect((await post(change('N6', '20', 1_000, 'ORD-N6'))).status).to.equal(200);
    const other = await post(change('N6', '20', 1_500, 'ORD-N6'));
    expect(other.status).to.equal(900);
    expect(other.body).to.deep.equal({
      code: '6105',
      message: 'This order benefit cost already changed the staff limit with a different amount',
      httpStatus: 409,
      isProcess: false,
    });
    expect(amounts(other)).to.deep.equal({ applied: undefined, remaining: undefined, replayed: undefined });
    expect(await remainingOf(db.knex, 'N6')).to.equal(4_000);
    expect(await historyOf(db.knex, 'N6')).to.have.length(1);
  });

  it('when a decrease was refused with 6102, then a later repeat is judged afresh (a refusal applied nothing to protect)', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N7', limAmt: 10_000, rmndAmt: 500 });
    const body = change('N7', '20', 1_000, 'ORD-N7');
    expect((await post(body)).body).to.include({ code: '6102' });
    expect((await post(change('N7', '10', 2_000, 'CANCEL-N7'))).status).to.equal(200);
    const later = await post(body);
    expect(later.status).to.equal(200);
    expect(amounts(later)).to.deep.equal({ applied: '1000', remaining: '1500', replayed: undefined });
  });

  it('when 20 copies of one change race without a key, then exactly one is applied and 19 replay it', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N8', limAmt: 100_000, rmndAmt: 50_000 });
    const body = change('N8', '20', 2_500, 'ORD-N8');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(body)));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(20).fill(200));
    expect(answers.filter((a) => amounts(a).replayed === 'true')).to.have.length(19);
    for (const a of answers) expect(amounts(a)).to.include({ applied: '2500', remaining: '47500' });
    expect(await remainingOf(db.knex, 'N8')).to.equal(47_500);
    expect(await historyOf(db.knex, 'N8')).to.have.length(1);
  });

  it('when a keyed request repeats a change made without a key, then it replays it, and its key then replays the same', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'N9', limAmt: 10_000, rmndAmt: 5_000 });
    const body = change('N9', '20', 800, 'ORD-N9');
    expect((await post(body)).status).to.equal(200);
    const keyed = await post(body, 'key-n9');
    expect(amounts(keyed)).to.deep.equal({ applied: '800', remaining: '4200', replayed: 'true' });
    const again = await post(body, 'key-n9');
    expect(amounts(again)).to.deep.equal({ applied: '800', remaining: '4200', replayed: 'true' });
    expect(await remainingOf(db.knex, 'N9')).to.equal(4_200);
    expect(await historyOf(db.knex, 'N9')).to.have.length(1);
  });

  it('when the history is read, then a unique index on the natural key holds the rule, whoever writes the row', async () => {
    const [rows] = (await db.knex.raw("SHOW INDEX FROM staff_dc_lim_hist WHERE Key_name = 'uk_hist_nat_key'")) as [
      { Non_unique: number; Column_name: string }[],
    ];
    expect(rows.map((r) => [r.Column_name, Number(r.Non_unique)])).to.deep.equal([['nat_key', 0]]);
    const [first] = await historyOf(db.knex, 'N9');
    const { hist_no: _, ...copy } = first!;
    let refused: unknown;
    await db
      .knex('staff_dc_lim_hist')
      .insert(copy)
      .catch((err: unknown) => (refused = err));
    expect((refused as { errno?: number } | undefined)?.errno, 'a second row with the same natural key').to.equal(1062);
  });

  describe('success headers (issue 18)', () => {
    it('when an increase would pass the limit, then X-Applied-Amount says how much was kept and X-Remaining-Amount the new balance', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'H1', limAmt: 10_000, rmndAmt: 9_000 });
      const res = await post(change('H1', '10', 2_500, 'CANCEL-H1'));
      expect(res.status).to.equal(200);
      expect(res.text).to.equal('');
      expect(amounts(res)).to.deep.equal({ applied: '1000', remaining: '10000', replayed: undefined });
      const [h] = await historyOf(db.knex, 'H1');
      expect([h!.req_amt, h!.aply_amt, h!.aft_rmnd_amt]).to.deep.equal([2_500, 1_000, 10_000]);
    });

    it('when the limit is already full, then an increase applies 0', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'H2', limAmt: 10_000, rmndAmt: 10_000 });
      expect(amounts(await post(change('H2', '10', 300, 'CANCEL-H2')))).to.deep.equal({
        applied: '0',
        remaining: '10000',
        replayed: undefined,
      });
    });

    it('when a keyed change is replayed, then the headers repeat what the first request applied', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'H3', limAmt: 10_000, rmndAmt: 9_500 });
      const body = change('H3', '10', 1_000, 'CANCEL-H3');
      const first = await post(body, 'key-h3');
      expect(amounts(first)).to.deep.equal({ applied: '500', remaining: '10000', replayed: undefined });
      expect(amounts(await post(body, 'key-h3'))).to.deep.equal({ applied: '500', remaining: '10000', replayed: 'true' });
    });

    it('when a change is refused, then neither amount header is sent', async () => {
      const res = await post(change('NOBODY', '20', 1, 'ORD-X'));
      expect(res.body).to.include({ code: '6101' });
      expect(amounts(res)).to.deep.equal({ applied: undefined, remaining: undefined, replayed: undefined });
    });

    it('when the member API docs are read, then the 200 of dcLimIncDec documents both headers as integers', async () => {
      const served = (await request(member.app).get('/api/member/v3/api-docs')).body as ReturnType<typeof buildOpenApiDocument>;
      for (const doc of [served, buildOpenApiDocument('member')]) {
        const ok = (doc as { paths: Record<string, { post?: { responses: Record<string, { headers?: Record<string, unknown> }> } }> })
          .paths['/v1/staff/dcLimIncDec']!.post!.responses['200']!;
        expect(ok.headers).to.have.all.keys('X-Applied-Amount', 'X-Remaining-Amount', 'Idempotent-Replayed');
        expect(ok.headers!['X-Applied-Amount']).to.deep.include({ schema: { type: 'integer' } });
        expect(ok.headers!['X-Remaining-Amount']).to.deep.include({ schema: { type: 'integer' } });
      }
    });
  });
});

describe('migration 0102 over a history that already holds repeats', () => {
  it('when the same change was written twice before the key existed, then the migration keeps both rows and keys the first', async () => {
    const db = await createTestDatabase('member_natkey_mig', [...memberBaseMigrations, idempotencyKeysMigration]);
    try {
      const row = {
        mbr_no: 'M1',
        rsrv_use_gb_cd: '20',
        req_amt: 100,
        aply_amt: 100,
        ord_no: 'ORD-M1',
        claim_no: null,
        reg_dtm: '2026-01-01 00:00:00',
      };
      await db.knex('staff_dc_lim_hist').insert([
        { ...row, bef_rmnd_amt: 1_000, aft_rmnd_amt: 900 },
        { ...row, bef_rmnd_amt: 900, aft_rmnd_amt: 800 },
        { ...row, ord_no: 'ORD-M2', bef_rmnd_amt: 800, aft_rmnd_amt: 700 },
      ]);
      await migrateLatest(db.knex, memberMigrations);
      const keys = (await db.knex('staff_dc_lim_hist').orderBy('hist_no').select('nat_key')).map(
        (r: { nat_key: string | null }) => r.nat_key,
      );
      expect(keys[0]).to.match(/^[0-9a-f]{64}$/);
      expect(keys[1]).to.equal(null);
      expect(keys[2])
        .to.match(/^[0-9a-f]{64}$/)
        .and.not.equal(keys[0]);
    } finally {
      await db.drop();
    }
  });
});
