import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expect } from 'chai';
import { memberMigrations } from '@bo/member/migrations';
import {
  createTestDatabase,
  startNginxGateway,
  startService,
  type RunningGateway,
  type ServiceProcess,
  type TestDatabase,
} from '@bo/testing';
import {
  arrangeLedgerMembers,
  CLIENTS,
  itKeepsTheLedger,
  ledgerFigures,
  readLedgerOutcome,
  runLoad,
  SECONDS,
  SETTLE_LIMIT_MS,
  type LedgerOutcome,
} from '../../../services/member/test/ledger-load.ts';

/**
 * Issue 16: the staff-limit ledger load of services/member/test/ledger-under-load.test.ts, same
 * clients, timeouts, retries and invariants, but over two member processes behind the real
 * nginx gateway. Round robin sends the retries and resends of one key to either copy, so a copy
 * must replay (or wait for) what the other applied; only the database is shared. The invariants
 * read the tables through the test's own connection after the run.
 */
const CHANGE_URI = '/api/member/v1/staff/dcLimIncDec';
/** The gateway's log line type, with the request id its JSON format also holds. */
type AccessLine = ReturnType<RunningGateway['accessLog']>[number] & { requestId: string };
/** 127.0.0.2 is "inside" the compose network for the rendered gateway (nginx-gateway.ts). */
const INTERNAL_CALLER = '127.0.0.2';

describe(`staff limit ledger under load over two member copies behind nginx (${CLIENTS} clients, ${SECONDS} s)`, () => {
  let db: TestDatabase;
  let gateway: RunningGateway;
  const copies: ServiceProcess[] = [];
  const agent = new http.Agent({ keepAlive: true });
  let outcome: LedgerOutcome;
  /** Change attempts per upstream, and the keys whose attempts went to both copies, from nginx's access log. */
  let perCopy: Record<string, number>;
  let keysOnBothCopies: number;

  before(async function () {
    this.timeout((SECONDS + SETTLE_LIMIT_MS / 1000 + 180) * 1000);
    db = await createTestDatabase('ledger_two_copies', memberMigrations);
    // nginx connects from 127.0.0.1 and passes the caller's address in X-Forwarded-For.
    const env = {
      MEMBER_DATABASE_URL: db.url,
      INTERNAL_CIDRS: '127.0.0.0/8',
      TRUSTED_PROXIES: '127.0.0.1/32',
      DB_POOL_MAX: '20',
      DB_ACQUIRE_TIMEOUT_MS: '60000',
      LOG_LEVEL: 'warn',
    };
    copies.push(...(await Promise.all([startService('member', env), startService('member', env)])));
    gateway = await startNginxGateway({ backoffice: [copies[0]!.port], member: copies.map((c) => c.port), worker: [copies[0]!.port] });

    const members = await arrangeLedgerMembers(db.knex);
    const seed = randomBytes(4).readUInt32BE();
    const run = await runLoad({ baseUrl: `http://127.0.0.1:${gateway.port}`, agent, localAddress: INTERNAL_CALLER }, members, seed);
    outcome = await readLedgerOutcome(db.knex, run, members);

    // Each change attempt carries X-Request-Id <key>.<n>; nginx logs it with the copy it chose.
    await new Promise((r) => setTimeout(r, 200)); // nginx logs a line after its answer has left
    const changes = gateway.accessLog().filter((l) => l.uri === CHANGE_URI) as AccessLine[];
    perCopy = {};
    const copiesOfKey = new Map<string, Set<string>>();
    for (const l of changes) {
      perCopy[l.upstream] = (perCopy[l.upstream] ?? 0) + 1;
      const key = l.requestId.slice(0, l.requestId.lastIndexOf('.'));
      copiesOfKey.set(key, (copiesOfKey.get(key) ?? new Set()).add(l.upstream));
    }
    keysOnBothCopies = [...copiesOfKey.values()].filter((s) => s.size > 1).length;
    console.log(`      ledger over two copies: ${JSON.stringify({ ...ledgerFigures(outcome, seed), perCopy, keysOnBothCopies })}`);
  });
  after(async () => {
    agent.destroy();
    await gateway?.stop();
    for (const c of copies) c.kill();
    await db?.drop();
  });

  it('when the changes went through the gateway, then both copies served about half of them and some keys were retried on the other copy', () => {
    const total = Object.values(perCopy).reduce((s, n) => s + n, 0);
    expect(Object.keys(perCopy).sort(), 'upstreams of the change attempts').to.deep.equal(copies.map((c) => `127.0.0.1:${c.port}`).sort());
    for (const [copy, n] of Object.entries(perCopy)) expect(n / total, `share of ${copy}`).to.be.within(0.3, 0.7);
    expect(keysOnBothCopies, 'keys whose attempts reached both copies').to.be.greaterThan(0);
  });

  itKeepsTheLedger(() => outcome);
});
