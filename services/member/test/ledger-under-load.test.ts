import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { type TestDatabase } from '@bo/testing';
import type { RunningServer } from '@bo/service-kit';
import { createMemberDatabase, listening, memberApp, type MemberApp } from './support.ts';
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
} from './ledger-load.ts';

/**
 * Issue 10, "ledger under load", against one in-process member server (ledger-load.ts holds the
 * load and the invariants; tests/system/test/ledger-two-copies.test.ts runs the same over two
 * member processes behind the real nginx gateway).
 */
describe(`staff limit ledger under load (${CLIENTS} clients, ${SECONDS} s)`, () => {
  let db: TestDatabase;
  let member: MemberApp;
  let server: RunningServer;
  const agent = new http.Agent({ keepAlive: true });
  let outcome: LedgerOutcome;

  before(async function () {
    this.timeout((SECONDS + SETTLE_LIMIT_MS / 1000 + 60) * 1000);
    db = await createMemberDatabase('member_ledger_load');
    member = memberApp(db);
    server = await listening(member);
    const members = await arrangeLedgerMembers(db.knex);
    const seed = randomBytes(4).readUInt32BE();
    const run = await runLoad({ baseUrl: server.url, agent }, members, seed);
    outcome = await readLedgerOutcome(db.knex, run, members);
    console.log(`      ledger under load: ${JSON.stringify(ledgerFigures(outcome, seed))}`);
  });
  after(async () => {
    agent.destroy();
    await server?.close();
    await member?.close();
    await db?.drop();
  });

  itKeepsTheLedger(() => outcome);
});
