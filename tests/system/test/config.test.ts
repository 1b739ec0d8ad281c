import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { loadBackofficeConfig } from '@bo/backoffice';
import { loadMemberConfig } from '@bo/member';
import { ConfigError } from '@bo/service-kit';
import { rsaKeyPair } from '@bo/testing';

const SECRET = 'config-test-secret-0123456789';
const keys = rsaKeyPair();

/** The ConfigError a load throws, or a failure when it loads. */
function configErrorOf(load: () => unknown): ConfigError {
  try {
    load();
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return err as ConfigError;
  }
  expect.fail('the configuration loaded, but it should have been refused');
}

describe('configuration from the environment', () => {
  it('when nothing is set outside production, then the documented defaults apply', () => {
    const bo = loadBackofficeConfig({});
    expect(bo).to.include({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PLATFORM_TIME_ZONE: 'Asia/Seoul',
      SHUTDOWN_TIMEOUT_MS: 10000,
      BO_DATABASE_URL: 'mysql://root@127.0.0.1:3306/bo',
      DB_POOL_MAX: 10,
      BO_PORT: 3001,
      STATISTICS_TOP_N: 10,
    });
    expect(bo.JWT_SECRET).to.equal(undefined);
    expect(bo.JWT_PUBLIC_KEY).to.equal(undefined);
    expect(loadMemberConfig({})).to.include({ MEMBER_PORT: 3002, MEMBER_DATABASE_URL: 'mysql://root@127.0.0.1:3306/member' });
  });

  it('when values are given as text, then numbers become numbers and empty values count as unset', () => {
    const bo = loadBackofficeConfig({ BO_PORT: '4001', DB_POOL_MAX: '3', PLATFORM_TIME_ZONE: 'Europe/Berlin', LOG_LEVEL: '' });
    expect(bo).to.include({ BO_PORT: 4001, DB_POOL_MAX: 3, PLATFORM_TIME_ZONE: 'Europe/Berlin', LOG_LEVEL: 'info' });
  });

  for (const port of ['0', '65536', '70000', 'abc', '3001.5', '-1']) {
    it(`when BO_PORT is ${JSON.stringify(port)}, then the start stops naming BO_PORT`, () => {
      const err = configErrorOf(() => loadBackofficeConfig({ BO_PORT: port }));
      expect(err.problems).to.have.length(1);
      expect(err.problems[0]).to.match(/^BO_PORT /);
      expect(err.message).to.contain(`got ${JSON.stringify(port)}`);
    });
  }

  it('when MEMBER_PORT is out of range, then the member service stops naming MEMBER_PORT', () => {
    const err = configErrorOf(() => loadMemberConfig({ MEMBER_PORT: '99999' }));
    expect(err.problems[0]).to.match(/^MEMBER_PORT /);
  });

  it('when a database URL has another scheme, then the error names the variable and hides the password', () => {
    const bo = configErrorOf(() => loadBackofficeConfig({ BO_DATABASE_URL: 'postgres://app:s3cret-pw@db:5432/bo' }));
    expect(bo.problems).to.have.length(1);
    expect(bo.problems[0]).to.match(/^BO_DATABASE_URL /);
    expect(bo.message).to.contain('postgres://app:***@db:5432/bo');
    expect(bo.message).to.not.contain('s3cret-pw');
    const member = configErrorOf(() => loadMemberConfig({ MEMBER_DATABASE_URL: 'http://db/member' }));
    expect(member.problems[0]).to.match(/^MEMBER_DATABASE_URL /);
  });

  it('when PLATFORM_TIME_ZONE is not an IANA zone, then the error names it', () => {
    for (const load of [loadBackofficeConfig, loadMemberConfig]) {
      const err = configErrorOf(() => load({ PLATFORM_TIME_ZONE: 'Mars/Olympus_Mons' }));
      expect(err.problems).to.deep.equal(['PLATFORM_TIME_ZONE is not a known IANA time zone (got "Mars/Olympus_Mons")']);
    }
  });

  it('when both JWT_SECRET and JWT_PUBLIC_KEY are set, then the error names both', () => {
    const err = configErrorOf(() => loadBackofficeConfig({ JWT_SECRET: SECRET, JWT_PUBLIC_KEY: keys.publicKey }));
    expect(err.problems).to.have.length(1);
    expect(err.problems[0]).to.contain('JWT_SECRET').and.contain('JWT_PUBLIC_KEY');
  });

  it('when neither JWT variable is set in production, then the start stops; with one of them it starts', () => {
    const err = configErrorOf(() => loadBackofficeConfig({ NODE_ENV: 'production' }));
    expect(err.problems).to.deep.equal(['JWT_SECRET or JWT_PUBLIC_KEY is required in production']);
    expect(loadBackofficeConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).JWT_SECRET).to.equal(SECRET);
    expect(loadBackofficeConfig({ NODE_ENV: 'production', JWT_PUBLIC_KEY: keys.publicKey }).JWT_PUBLIC_KEY).to.contain('PUBLIC KEY');
  });

  it('when JWT_SECRET is too short, then the error names it without printing it', () => {
    const err = configErrorOf(() => loadBackofficeConfig({ JWT_SECRET: 'short-pw' }));
    expect(err.problems[0]).to.match(/^JWT_SECRET /);
    expect(err.message).to.not.contain('short-pw');
  });

  it('when JWT_PUBLIC_KEY is not an RSA public key, then the error names it', () => {
    const garbage = `-----BEGIN PUBLIC KEY-----\n${'A'.repeat(80)}\n-----END PUBLIC KEY-----\n`;
    expect(configErrorOf(() => loadBackofficeConfig({ JWT_PUBLIC_KEY: garbage })).problems).to.deep.equal([
      'JWT_PUBLIC_KEY is not a PEM public key',
    ]);
    expect(configErrorOf(() => loadBackofficeConfig({ JWT_PUBLIC_KEY: keys.privateKey })).problems[0]).to.match(
      /^JWT_PUBLIC_KEY holds a private key/,
    );
  });

  it('when JWT_PUBLIC_KEY arrives on one line with \\n escapes (env files), then it is accepted', () => {
    const oneLine = keys.publicKey.trim().replace(/\n/g, '\\n');
    expect(loadBackofficeConfig({ JWT_PUBLIC_KEY: oneLine }).JWT_PUBLIC_KEY).to.equal(oneLine);
  });

  it('when several values are bad, then every one is named in the same error', () => {
    const err = configErrorOf(() => loadBackofficeConfig({ BO_PORT: '0', LOG_LEVEL: 'loud', NODE_ENV: 'prod', DB_POOL_MAX: '0' }));
    const named = err.problems.map((p) => p.split(' ')[0]);
    expect(named.sort()).to.deep.equal(['BO_PORT', 'DB_POOL_MAX', 'LOG_LEVEL', 'NODE_ENV']);
    expect(err.message).to.contain('NODE_ENV must be one of "development", "test", "production" (got "prod")');
  });

  it('when the service process starts with a bad value, then it exits 1 with the message and no stack trace', async function () {
    this.timeout(30_000);
    const cwd = fileURLToPath(new URL('../../../services/backoffice/', import.meta.url));
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd, env: { PATH: process.env.PATH, BO_PORT: '70000' } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stderr }));
    });
    expect(code).to.equal(1);
    expect(stderr).to.contain('Invalid configuration').and.contain('BO_PORT');
    expect(stderr).to.not.match(/\n\s+at /);
  });
});
