import { expect } from 'chai';
import fc from 'fast-check';
import { operationsOf } from '@bo/contracts';
import {
  tableChecksums,
  type TestDatabase,
  answerOutcome,
  answerProblems,
  hostileHeaderValue,
  hostileRequest,
  hostileRunSettings,
  prototypeChanges,
  prototypeSnapshot,
  sendRaw,
  type HostileOptions,
  type SampleRequest,
} from '@bo/testing';
import type { RunningServer } from '@bo/service-kit';
import { MEMBER_PREFIX } from '../src/index.ts';
import { arrangeStaff, createMemberDatabase, listening, memberApp, type MemberApp } from './support.ts';

const { numRuns, seed } = hostileRunSettings(150);
const ACCESS_TOKEN = 'member-access-token-0123456789';

/** Valid requests: the change would apply (S1 is a staff member with room both ways). */
const SAMPLES: Record<string, SampleRequest> = {
  dcLimIncDec: { body: { mbrNo: 'S1', rsrvUseGbCd: '20', ocurAmt: 100, ordNo: 'O-1', claimNo: 'C-1', ordFvrCostSeq: '1' } },
  getDsctLmtStatBO: { query: { mbrNo: 'S1' } },
};

/** X-Forwarded-For as proxies, scanners and forgers write it (127.0.0.1 is a trusted proxy here, so it is parsed). */
const forwardedFor = fc.oneof(
  fc.constantFrom(
    '10.0.0.1',
    '8.8.8.8',
    '::1',
    '::ffff:127.0.0.1',
    '[::1]:80',
    '127.0.0.1, 10.0.0.1',
    '999.999.999.999',
    'unknown',
    ',,,',
    ' ',
    '10.0.0.1,'.repeat(300),
    'fe80::1%eth0',
    '0x7f.1',
    '127.1',
    '2130706433',
    '::ffff:8.8.8.8',
  ),
  hostileHeaderValue(),
);

/**
 * Both member operations fed hostile queries, bodies, access tokens, forwarded-for chains and
 * Idempotency-Keys. The limit change is only ever sent requests its schema refuses (a valid one
 * would rightly write), so after every single request each table's checksum is the same.
 */
describe('hostile input: member operations', function () {
  this.timeout(300_000);
  let db: TestDatabase;
  let member: MemberApp;
  let server: RunningServer;
  let prototypes: ReturnType<typeof prototypeSnapshot>;
  let sent = 0;
  const statuses = new Map<string, number>();

  before(async () => {
    db = await createMemberDatabase('hostile_member');
    await arrangeStaff(db.knex, { mbrNo: 'S1', limAmt: 1_000_000, rmndAmt: 500_000 });
    await arrangeStaff(db.knex, { mbrNo: 'S2', limAmt: 1_000, rmndAmt: 0 });
    await arrangeStaff(db.knex, { mbrNo: 'S3', limAmt: 0, rmndAmt: 0, withLimit: false });
    await arrangeStaff(db.knex, { mbrNo: 'N1', limAmt: 0, rmndAmt: 0, staffYn: 'N' });
    member = memberApp(db, { MEMBER_ACCESS_TOKEN: ACCESS_TOKEN, TRUSTED_PROXIES: '127.0.0.1/32' });
    server = await listening(member);
    prototypes = prototypeSnapshot();
    console.log(`      (hostile input: fast-check seed ${seed}, ${numRuns} runs per operation; FC_SEED / FC_RUNS change them)`);
  });

  after(async () => {
    console.log(
      `      (hostile input: ${sent} hostile requests to ${operationsOf('member').length} member operations; status/code × count: ${tally(statuses)})`,
    );
    await server?.close();
    await member?.close();
    await db?.drop();
  });

  it('when a valid change is sent, then it succeeds and the table checksums see it (so an unchanged checksum means something)', async () => {
    const before = await tableChecksums(db.knex);
    const answer = await sendRaw(server.url, `${MEMBER_PREFIX}/v1/staff/dcLimIncDec`, {
      method: 'post',
      query: '',
      headers: { authorization: `Bearer ${ACCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...SAMPLES.dcLimIncDec!.body, rsrvUseGbCd: '10', ocurAmt: 1 }),
    });
    expect(answer.status, answer.text).to.equal(200);
    const after = await tableChecksums(db.knex);
    expect(after.staff_dc_lim).to.not.equal(before.staff_dc_lim);
    expect(after.staff_dc_lim_hist).to.not.equal(before.staff_dc_lim_hist);

    const read = await sendRaw(server.url, `${MEMBER_PREFIX}/v1/staff/getDsctLmtStatBO`, {
      method: 'get',
      query: 'mbrNo=S1',
      headers: { authorization: ACCESS_TOKEN },
    });
    expect(read.status, read.text).to.equal(200);
  });

  for (const op of operationsOf('member')) {
    const writes = op.method === 'post';
    it(`when ${op.method.toUpperCase()} ${op.path} gets hostile ${writes ? 'invalid ' : ''}requests, then no 5xx, no stack, ErrorCode failures, no table or prototype changed`, async () => {
      const options: HostileOptions = {
        invalidOnly: writes,
        authorization: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(`Bearer ${ACCESS_TOKEN}`, ACCESS_TOKEN) },
          { weight: 1, arbitrary: fc.option(hostileHeaderValue(), { nil: undefined }) },
        ),
        headers: { 'x-forwarded-for': forwardedFor, ...(writes ? { 'idempotency-key': hostileHeaderValue() } : {}) },
      };
      await fc.assert(
        fc.asyncProperty(hostileRequest(op, SAMPLES[op.operationId]!, options), async (req) => {
          sent++;
          const before = await tableChecksums(db.knex);
          const answer = await sendRaw(server.url, `${MEMBER_PREFIX}${op.path}`, req);
          const outcome = answerOutcome(answer);
          statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
          const problems = [...answerProblems(op, answer), ...prototypeChanges(prototypes)];
          const after = await tableChecksums(db.knex);
          for (const [table, sum] of Object.entries(after))
            if (before[table] !== sum) problems.push(`table ${table} changed (status ${answer.status})`);
          if (problems.length) throw new Error(problems.join('\n'));
        }),
        { numRuns, seed },
      );
    });
  }
});

const tally = (statuses: Map<string, number>): string =>
  [...statuses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, n]) => `${outcome} ×${n}`)
    .join(', ');
