import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { dropDatabase, withDatabase } from '@bo/db';
import { connectError, TEST_SERVER_URL, waitFor } from '@bo/testing';

const root = join(import.meta.dirname, '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const apiSpec = readFileSync(join(root, 'docs/api-spec.md'), 'utf8');

const freePort = () =>
  new Promise<number>((resolvePort) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });

/** The README's *Quick tour* block: the setup line and one call per `curl` line (with its comment). */
function quickTour(): { setup: string; calls: { title: string; command: string }[] } {
  const block = /### Quick tour[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README has no Quick tour block');
  const lines = block.trim().split('\n');
  const calls = lines.flatMap((line, i) => (line.startsWith('curl ') ? [{ title: lines[i - 1]!.replace(/^# /, ''), command: line }] : []));
  return { setup: lines.filter((l) => !l.startsWith('curl ') && !l.startsWith('#')).join('\n'), calls };
}

describe('pnpm start, then the README Quick tour as a user types it', function () {
  this.timeout(400_000);
  const suffix = randomBytes(3).toString('hex');
  const databases = { bo: `t_tour_bo_${suffix}`, member: `t_tour_mb_${suffix}` };
  const redisPrefix = `t_tour_${suffix}`;
  const logDir = mkdtempSync(join(tmpdir(), 'tour-logs-'));
  let ports: { bo: number; member: number; worker: number };
  let start: ChildProcess;
  let output = '';

  before(async () => {
    ports = { bo: await freePort(), member: await freePort(), worker: await freePort() };
    // `pnpm start` as typed, on this test's own databases, ports and Redis prefix, with a small demo set.
    start = spawn('pnpm', ['start', '--demo-days', '8', '--demo-events', '4000', '--logs', logDir], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        FORCE_COLOR: '0',
        BO_DATABASE_URL: withDatabase(TEST_SERVER_URL, databases.bo),
        MEMBER_DATABASE_URL: withDatabase(TEST_SERVER_URL, databases.member),
        BO_PORT: String(ports.bo),
        MEMBER_PORT: String(ports.member),
        WORKER_PORT: String(ports.worker),
        REDIS_PREFIX: redisPrefix,
      },
    });
    start.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    start.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 300_000;
    while (!output.includes('Ctrl-C stops everything.') && start.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    if (!output.includes('Ctrl-C stops everything.')) throw new Error(`pnpm start did not come up:\n${output}`);
  });

  after(async () => {
    if (start?.pid) {
      const exited = start.exitCode === null ? new Promise((r) => start.once('exit', r)) : Promise.resolve();
      // The whole group: pnpm may be gone already (the last test) while what it started is not.
      try {
        process.kill(-start.pid, 'SIGINT');
      } catch {
        // no process of the group is left
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    }
    for (const name of Object.values(databases)) await dropDatabase(withDatabase(TEST_SERVER_URL, name)).catch(() => undefined);
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
    const keys = await redis.keys(`${redisPrefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    rmSync(logDir, { recursive: true, force: true });
  });

  const bo = () => `http://127.0.0.1:${ports.bo}/api/bo`;
  const token = () => /^\s*TOKEN=(\S+)$/m.exec(output)![1]!;
  const get = async (path: string) => {
    const res = await fetch(`${bo()}${path}`, { headers: { authorization: `Bearer ${token()}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('when pnpm start is up, then the URLs and the token come last, after the demo aggregates, without log lines', () => {
    const lines = output.trimEnd().split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(lines.at(-1)!.trim()).to.equal('Ctrl-C stops everything.');
    expect(at('building the aggregates of the demo days')).to.be.above(-1);
    expect(at('and the demo aggregates are built')).to.be.above(at('All 1 aggregation job(s) completed.'));
    for (const url of [
      `http://localhost:${ports.bo}/api/bo/swagger-ui`,
      `http://localhost:${ports.member}/api/member/swagger-ui`,
      `http://localhost:${ports.worker}/admin/queues`,
    ])
      expect(at(url), url).to.be.above(at('and the demo aggregates are built'));
    expect(at('TOKEN=')).to.be.above(at('and the demo aggregates are built'));
    // No JSON log line in the terminal, and not hundreds of lines: the logs are in the files.
    expect(lines.filter((l) => l.trim().startsWith('{'))).to.deep.equal([]);
    expect(lines.length).to.be.below(40);
    const logLines = readFileSync(join(logDir, 'backoffice.log'), 'utf8').trim().split('\n');
    expect(JSON.parse(logLines[0]!)).to.include({ service: 'backoffice', message: 'back-office service listening' });
  });

  it('when the README Quick tour is run line by line, then each call answers what its comment says', () => {
    const { setup, calls } = quickTour();
    expect(calls).to.have.lengthOf(5);
    // The README's commands as written, with the ports of this test's services.
    const answers = calls.map(({ title, command }) => {
      const script = `${setup}\n${command}`.replaceAll('localhost:3001', `localhost:${ports.bo}`);
      const r = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8' });
      expect(r.status, `${title}: ${r.stderr}`).to.equal(0);
      return { title, body: JSON.parse(r.stdout) as Record<string, unknown> & unknown[] };
    });
    const [dashboard, period, categories, aiList, refused] = answers.map((a) => a.body);

    const statuses = dashboard!.goodsStatuses as { saleStatCd: string; cnt: number }[];
    expect(statuses.map((s) => s.saleStatCd)).to.deep.equal(['00', '02', '03', '10', '20']);
    expect(statuses.find((s) => s.saleStatCd === '10')!.cnt).to.be.above(0);

    const rows = period!.payloads as { agrtDt: string; finalOrdQty: number }[];
    expect(period!.totalCount).to.equal(rows.length).and.be.within(7, 8);
    expect(rows.some((r) => r.finalOrdQty > 0)).to.equal(true);

    expect(categories).to.be.an('array');
    expect(categories!.length).to.be.within(1, 10);

    const list = aiList!.payload as { payloads: unknown[] };
    expect(aiList!.error).to.equal(false);
    expect(list.payloads.length).to.be.within(1, 5);

    expect(refused).to.include({ code: '1000', httpStatus: 400 });
    expect(refused!.errors).to.deep.equal([{ field: 'agrtGb', message: 'must be one of "01", "02"' }]);
  });

  describe('a refused code lists the allowed values, over HTTP', () => {
    const cases: [what: string, path: string, field: string, allowed: string[]][] = [
      [
        'calendarType',
        '/v1/statistics/periodBasedStatus/getPeriodBasedStatusList?calendarType=week&agrtGb=01',
        'calendarType',
        ['date', 'month'],
      ],
      ['agrtGb', '/v2/statistics/category/sales-status?startDate=2026-05-01&endDate=2026-05-02&agrtGb=1', 'agrtGb', ['01', '02']],
      [
        'searchCodeOption',
        '/v2/goods/ai/getAiGoodsList?searchCodeOption=zz&searchCode=G1',
        'searchCodeOption',
        ['st', 'in', 'eq', 'mt', 'rg'],
      ],
      ['procStatCd', '/v2/dashboard/goods/qna-answer-status?procStatCd=30', 'procStatCd', ['10', '20']],
    ];
    for (const [what, path, field, allowed] of cases) {
      it(`when ${what} has a value outside its set, then 900 and the message lists ${allowed.join(', ')}`, async () => {
        const res = await get(path);
        expect(res.status, JSON.stringify(res.body)).to.equal(900);
        const error = (res.body.errors as { field: string; message: string }[]).find((e) => e.field === field);
        expect(error?.message).to.equal(`must be one of ${allowed.map((v) => `"${v}"`).join(', ')}`);
      });
    }

    it('when the PR050 option is not in use, then the message lists the options in use with their names', async () => {
      const res = await fetch(`${bo()}/v2/goods/ai/getAiGoodsDesc`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ goodsNo: 'G000001', option: '99' }),
      });
      const body = (await res.json()) as { errors: { field: string; message: string }[] };
      expect(res.status).to.equal(900);
      expect(body.errors).to.deep.equal([
        { field: 'option', message: 'must be one of "10" (상세설명), "20" (셀링포인트), "30" (SEO 메타), "40" (FAQ) (got "99")' },
      ]);
    });

    it('when rsrvUseGbCd is neither 10 nor 20, then the member service lists both', async () => {
      const res = await fetch(`http://127.0.0.1:${ports.member}/api/member/v1/staff/dcLimIncDec`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mbrNo: 'M1', rsrvUseGbCd: '30', ocurAmt: 100, ordNo: 'O1' }),
      });
      const body = (await res.json()) as { errors: { field: string; message: string }[] };
      expect(res.status, JSON.stringify(body)).to.equal(900);
      expect(body.errors).to.deep.include({ field: 'rsrvUseGbCd', message: 'must be one of "10", "20"' });
    });
  });

  it('when the OpenAPI documents declare an enum, then each value has a description and docs/api-spec.md §2.12 lists the same values', async () => {
    const documents = await Promise.all([
      fetch(`${bo()}/v3/api-docs`).then((r) => r.json()),
      fetch(`http://127.0.0.1:${ports.member}/api/member/v3/api-docs`).then((r) => r.json()),
    ]);
    // Every schema with an enum, by the parameter or property name it sits under.
    const enums = new Map<string, { values: string[]; described: string[] }>();
    const walk = (node: unknown, name: string): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n, name));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (Array.isArray(o.enum) && o.type === 'string')
        enums.set(name, { values: o.enum as string[], described: Object.keys((o['x-enumDescriptions'] as object) ?? {}) });
      for (const [key, value] of Object.entries(o)) walk(value, key === 'schema' && typeof o.name === 'string' ? o.name : key);
    };
    walk(documents, '');
    expect([...enums.keys()]).to.include.members(['agrtGb', 'calendarType', 'searchCodeOption', 'rsrvUseGbCd', 'procStatCd']);
    const table = apiSpec.split('### 2.12')[1]!.split('\n## ')[0]!;
    for (const [name, { values, described }] of enums) {
      expect(described, `${name} x-enumDescriptions`).to.deep.equal(values);
      const row = table.split('\n').find((l) => l.startsWith(`| \`${name}\``));
      expect(row, `docs/api-spec.md §2.12 has no row for ${name}`).to.be.a('string');
      const documented = [...row!.split('|')[3]!.matchAll(/`([^`]+)`:/g)].map((m) => m[1]);
      expect(documented, name).to.deep.equal(values);
    }
  });

  // A describe of its own, so that it runs after every other test here (mocha runs a block's
  // own tests before its nested blocks): it stops what they use.
  describe('stopping', () => {
    it('when only the pnpm process gets SIGTERM (kill <pid>, timeout pnpm start), then every process it started ends', async () => {
      process.kill(start.pid!, 'SIGTERM');
      const stillServed = async () =>
        (await Promise.all(Object.values(ports).map(async (p) => ((await connectError(p)) ? [] : [p])))).flat();
      await waitFor('every port closed', async () => (await stillServed()).length === 0, 20_000).catch(() => undefined);
      expect(await stillServed(), 'ports still served 20 s after pnpm ended').to.deep.equal([]);
      expect(output).to.include('the pnpm process that started this has ended: stopping everything');
    });
  });
});
