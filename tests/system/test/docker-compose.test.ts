import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { createKnex } from '@bo/db';
import { TEST_SERVER_URL } from '@bo/testing';
import { backofficeConfigSchema, loadBackofficeConfig } from '../../../services/backoffice/src/config.ts';
import { loadMemberConfig, memberConfigSchema } from '../../../services/member/src/config.ts';
import { loadWorkerConfig, workerConfigSchema } from '../../../services/aggregation-worker/src/config.ts';
import { ConfigError } from '@bo/service-kit';
import { interpolate, readCompose, readRepoFile, repoPath, type ComposeFile } from './support/repo-files.ts';

/** The three processes: their compose service, folder, config and health path. */
const PROCESSES = [
  {
    service: 'backoffice',
    folder: 'services/backoffice',
    schema: backofficeConfigSchema,
    load: loadBackofficeConfig,
    portVar: 'BO_PORT',
    health: '/api/bo/ready',
  },
  {
    service: 'member',
    folder: 'services/member',
    schema: memberConfigSchema,
    load: loadMemberConfig,
    portVar: 'MEMBER_PORT',
    health: '/api/member/ready',
  },
  {
    service: 'aggregation-worker',
    folder: 'services/aggregation-worker',
    schema: workerConfigSchema,
    load: loadWorkerConfig,
    portVar: 'WORKER_PORT',
    health: '/health',
  },
] as const;

/** What an operator exports before `docker compose up`. */
const OPERATOR_ENV = {
  JWT_SECRET: 'compose-test-secret-0123456789',
  QUEUE_DASHBOARD_PASSWORD: 'compose-dashboard-pw',
  MEMBER_ACCESS_TOKEN: 'compose-member-access-token',
};

const environmentOf = (compose: ComposeFile, service: string, env: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(compose.services[service]!.environment ?? {}).map(([k, v]) => [k, interpolate(v, env)]));

describe('docker-compose.yml and infra/', () => {
  const compose = readCompose();
  const rootPackage = JSON.parse(readRepoFile('package.json')) as { packageManager: string; scripts: Record<string, string> };

  it('when the file is parsed, then it holds exactly the stack: mysql and its replica, redis with a replica and Sentinels, migrate, the three processes and the gateway', () => {
    expect(Object.keys(compose.services).sort()).to.deep.equal([
      'aggregation-worker',
      'backoffice',
      'gateway',
      'member',
      'migrate',
      'mysql',
      'mysql-replica',
      'redis',
      'redis-replica',
      'redis-sentinel',
    ]);
  });

  it('when scaling is read, then two copies of each process, three Sentinels, reads on the replica and Redis through the Sentinels', () => {
    for (const name of ['backoffice', 'member', 'aggregation-worker'])
      expect((compose.services[name] as { deploy?: { replicas?: number } }).deploy?.replicas, name).to.equal(2);
    expect((compose.services['redis-sentinel'] as { deploy?: { replicas?: number } }).deploy?.replicas).to.equal(3);
    const bo = environmentOf(compose, 'backoffice', OPERATOR_ENV);
    expect(bo.BO_DATABASE_READ_URL).to.match(/@mysql-replica:3306\/bo$/);
    for (const name of ['backoffice', 'aggregation-worker'])
      expect(environmentOf(compose, name, OPERATOR_ENV)).to.include({
        REDIS_SENTINELS: 'redis-sentinel:26379',
        REDIS_SENTINEL_NAME: 'bo-redis',
      });
    expect(compose.services['redis-replica']!.command!.join(' ')).to.contain('--replicaof redis 6379').and.contain('--appendonly yes');
    expect(readRepoFile('infra/redis/sentinel.sh')).to.contain('sentinel monitor bo-redis redis 6379 2');
    expect(readRepoFile('infra/mysql/replica-init/01-follow-primary.sh'))
      .to.contain("SOURCE_HOST = 'mysql'")
      .and.contain('SOURCE_AUTO_POSITION = 1');
  });

  it('when references are followed, then every dependency, network and named volume exists', () => {
    const names = Object.keys(compose.services);
    for (const [name, svc] of Object.entries(compose.services)) {
      for (const dep of Object.keys(svc.depends_on ?? {})) expect(names, `${name} depends on ${dep}`).to.include(dep);
      const networks = Array.isArray(svc.networks) ? svc.networks : Object.keys(svc.networks ?? {});
      for (const net of networks) expect(compose.networks, `${name} network ${net}`).to.have.property(net);
      for (const volume of svc.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(repoPath(source.slice(2))), `${name} mounts ${source}`).to.equal(true);
        else expect(compose.volumes, `${name} volume ${source}`).to.have.property(source);
      }
    }
  });

  it('when the network is read, then it has a fixed subnet with the gateway container on a fixed address inside it', () => {
    const ipam = compose.networks.backend?.ipam?.config[0];
    expect(ipam).to.deep.equal({ subnet: '172.28.0.0/16', gateway: '172.28.0.1' });
    expect(compose.services.gateway!.networks).to.deep.equal({ backend: { ipv4_address: '172.28.0.10' } });
  });

  it('when ports are read, then only the gateway is published, on 8080', () => {
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([n]) => n)).to.deep.equal(['gateway']);
    expect(compose.services.gateway!.ports!.map((p) => interpolate(p, {}))).to.deep.equal(['8080:8080']);
  });

  describe('mysql', () => {
    const mysql = compose.services.mysql!;

    it('when the service is read, then it is MySQL 8 with its data on a named volume, my.cnf and the init scripts mounted, and a healthcheck', () => {
      expect(mysql.image).to.match(/^mysql:8(\.|$)/);
      expect(mysql.volumes).to.include.members([
        'mysql-data:/var/lib/mysql',
        './infra/mysql/my.cnf:/etc/mysql/conf.d/bo.cnf:ro',
        './infra/mysql/init:/docker-entrypoint-initdb.d:ro',
      ]);
      expect(mysql.healthcheck!.test.join(' ')).to.contain('mysqladmin ping');
      expect(mysql.environment).to.include({ MYSQL_USER: 'bo_app' });
    });

    it('when my.cnf is read, then the server speaks utf8mb4 with the unicode collation and allows LOCAL INFILE', () => {
      const sections = new Map<string, Map<string, string>>();
      let current = '';
      for (const line of readRepoFile('infra/mysql/my.cnf')
        .split('\n')
        .map((l) => l.trim())) {
        if (!line || line.startsWith('#')) continue;
        const header = /^\[(.+)\]$/.exec(line);
        if (header) sections.set((current = header[1]!), new Map());
        else {
          const [key, value = ''] = line.split('=').map((s) => s.trim());
          sections.get(current)!.set(key!.replace(/-/g, '_'), value);
        }
      }
      const server = sections.get('mysqld')!;
      expect(server.get('character_set_server')).to.equal('utf8mb4');
      expect(server.get('collation_server')).to.equal('utf8mb4_unicode_ci');
      expect(server.get('local_infile')).to.equal('1');
      expect(sections.get('client')!.get('default_character_set')).to.equal('utf8mb4');
    });

    it('when the init script runs (on MariaDB, names swapped for test ones), then bo and member exist in utf8mb4 and bo_app may use both', async () => {
      const suffix = randomBytes(4).toString('hex');
      const names = { bo: `t_init_bo_${suffix}`, member: `t_init_member_${suffix}`, user: `t_init_${suffix}` };
      const sql = readRepoFile('infra/mysql/init/01-databases.sql')
        .replace(/`bo`/g, `\`${names.bo}\``)
        .replace(/`member`/g, `\`${names.member}\``)
        .replace(/'bo_app'/g, `'${names.user}'`);
      const statements = sql
        .split('\n')
        .filter((l) => !l.trim().startsWith('--'))
        .join('\n')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
      const admin = createKnex(TEST_SERVER_URL, { poolMax: 1 });
      try {
        await admin.raw(`CREATE USER '${names.user}'@'%' IDENTIFIED BY 'x-${suffix}'`);
        for (const statement of statements) await admin.raw(statement);
        const [schemata] = (await admin.raw(
          'SELECT SCHEMA_NAME AS name, DEFAULT_CHARACTER_SET_NAME AS charset, DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN (?, ?) ORDER BY SCHEMA_NAME',
          [names.bo, names.member],
        )) as [{ name: string; charset: string; collation: string }[]];
        expect(schemata).to.deep.equal([
          { name: names.bo, charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' },
          { name: names.member, charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' },
        ]);
        const [grants] = (await admin.raw(`SHOW GRANTS FOR '${names.user}'@'%'`)) as [Record<string, string>[]];
        const text = grants.map((g) => Object.values(g)[0]).join('\n');
        expect(text).to.contain(`ALL PRIVILEGES ON \`${names.bo}\`.*`).and.contain(`ALL PRIVILEGES ON \`${names.member}\`.*`);
        expect(statements).to.have.length(4);
      } finally {
        await admin.raw(`DROP DATABASE IF EXISTS \`${names.bo}\``);
        await admin.raw(`DROP DATABASE IF EXISTS \`${names.member}\``);
        await admin.raw(`DROP USER IF EXISTS '${names.user}'@'%'`);
        await admin.destroy();
      }
    });
  });

  it('when redis is read, then it is Redis 7 with noeviction, AOF on, a named volume and a healthcheck', () => {
    const redis = compose.services.redis!;
    expect(redis.image).to.match(/^redis:7(\.|-|$)/);
    const command = redis.command!.join(' ');
    expect(command).to.contain('--maxmemory-policy noeviction').and.contain('--appendonly yes');
    expect(redis.volumes).to.include('redis-data:/data');
    expect(redis.healthcheck!.test.join(' ')).to.contain('redis-cli ping');
  });

  it('when the service Dockerfile is read, then it builds on node:20 with pinned pnpm and a frozen lockfile, and runs the start script of services/$SERVICE', () => {
    const dockerfile = readRepoFile('infra/service.Dockerfile');
    const pnpmVersion = rootPackage.packageManager.replace(/^pnpm@/, '');
    expect(dockerfile).to.match(/^FROM node:20[-\w.]*$/m);
    expect(dockerfile).to.contain(`npm install -g pnpm@${pnpmVersion}`);
    expect(dockerfile).to.match(/pnpm install --frozen-lockfile/);
    expect(dockerfile)
      .to.match(/^ARG SERVICE$/m)
      .and.match(/^ARG PORT$/m);
    expect(dockerfile).to.contain('WORKDIR /app/services/${SERVICE}').and.contain('EXPOSE ${PORT}');
    expect(dockerfile).to.match(/^CMD \["pnpm", "start"\]$/m);
    expect(dockerfile, 'SIGTERM must reach the service through pnpm').to.contain('npm_config_script_shell=/bin/bash');
    expect(readRepoFile('.dockerignore')).to.contain('**/node_modules');
  });

  it('when migrate is read, then it runs the root db:migrate once, after mysql is healthy, against both databases', () => {
    const migrate = compose.services.migrate!;
    expect(migrate.build).to.deep.equal(compose.services.backoffice!.build);
    expect(migrate.command).to.deep.equal(['pnpm', 'db:migrate']);
    expect(migrate.working_dir).to.equal('/app');
    expect(rootPackage.scripts['db:migrate']).to.be.a('string');
    expect(migrate.depends_on).to.deep.equal({ mysql: { condition: 'service_healthy' } });
    expect(Object.keys(migrate.environment!).sort()).to.deep.equal(['BO_DATABASE_URL', 'MEMBER_DATABASE_URL']);
    expect(migrate.healthcheck).to.equal(undefined);
  });

  for (const p of PROCESSES) {
    describe(p.service, () => {
      const svc = compose.services[p.service]!;

      it(`when its image is built, then the service Dockerfile gets its folder and its port as build arguments, and its start script runs tsx`, () => {
        const port = environmentOf(compose, p.service, OPERATOR_ENV)[p.portVar];
        expect(svc.build).to.deep.equal({ context: '.', dockerfile: 'infra/service.Dockerfile', args: { SERVICE: p.service, PORT: port } });
        expect(`services/${svc.build!.args!.SERVICE}`).to.equal(p.folder);
        const pkg = JSON.parse(readRepoFile(`${p.folder}/package.json`)) as { scripts: Record<string, string> };
        expect(pkg.scripts.start).to.match(/^tsx /);
      });

      it('when it starts, then it waits for migrate to complete and for its stores to be healthy', () => {
        expect(svc.depends_on!.migrate).to.deep.equal({ condition: 'service_completed_successfully' });
        expect(svc.depends_on!.mysql).to.deep.equal({ condition: 'service_healthy' });
        if ('REDIS_URL' in p.schema) expect(svc.depends_on!.redis).to.deep.equal({ condition: 'service_healthy' });
        expect(svc.init).to.equal(true);
      });

      it('when its environment is loaded by its own config loader, then it is valid, every variable is one it knows, and nothing falls back to localhost', () => {
        const env = environmentOf(compose, p.service, OPERATOR_ENV);
        for (const name of Object.keys(env)) expect(p.schema, `${p.service} sets ${name}`).to.have.property(name);
        // Defaults that point at this machine are right for a developer and wrong in a container.
        const localDefaults = Object.entries(p.schema as Record<string, { default?: unknown }>)
          .filter(([, s]) => typeof s.default === 'string' && /127\.0\.0\.1|localhost/.test(s.default))
          .map(([name]) => name);
        expect(localDefaults).to.include(p.service === 'member' ? 'MEMBER_DATABASE_URL' : 'BO_DATABASE_URL');
        for (const name of localDefaults) {
          expect(env[name], `${p.service} must set ${name}`).to.be.a('string');
          expect(env[name]).to.not.match(/127\.0\.0\.1|localhost/);
        }
        const config = p.load(env) as Record<string, unknown>;
        expect(config.NODE_ENV).to.equal('production');
        expect(config[p.portVar]).to.be.a('number');
      });

      it('when its healthcheck runs, then it asks the process on its own port', () => {
        const env = environmentOf(compose, p.service, OPERATOR_ENV);
        const test = svc.healthcheck!.test.join(' ');
        expect(test).to.contain(`http://127.0.0.1:${env[p.portVar]}${p.health}`);
      });
    });
  }

  it('when the operator exports no secrets, then each process refuses to start naming what is missing', () => {
    const refuse = (load: () => unknown) => {
      try {
        load();
      } catch (err) {
        expect(err).to.be.instanceOf(ConfigError);
        return (err as ConfigError).message;
      }
      return expect.fail('the configuration loaded without its secrets');
    };
    expect(refuse(() => loadBackofficeConfig(environmentOf(compose, 'backoffice', {})))).to.contain('JWT_SECRET or JWT_PUBLIC_KEY');
    expect(refuse(() => loadWorkerConfig(environmentOf(compose, 'aggregation-worker', {})))).to.contain('QUEUE_DASHBOARD_PASSWORD');
    const member = refuse(() => loadMemberConfig(environmentOf(compose, 'member', {})));
    expect(member).to.contain('MEMBER_ACCESS_TOKEN');
    // Compose sets its own subnet, so the all-private-ranges default is not what the member runs with.
    expect(member).to.not.contain('INTERNAL_CIDRS');
  });

  it('when the member service is read, then it trusts only the gateway address for X-Forwarded-For and treats the compose subnet as internal', () => {
    const env = environmentOf(compose, 'member', OPERATOR_ENV);
    expect(env.TRUSTED_PROXIES).to.equal('172.28.0.10/32');
    expect(env.INTERNAL_CIDRS).to.equal('172.28.0.0/16');
  });

  it('when the gateway is read, then it mounts infra/gateway/nginx.conf, waits for the three processes to be healthy, and has a healthcheck', () => {
    const gateway = compose.services.gateway!;
    expect(gateway.image).to.match(/^nginx:/);
    expect(gateway.volumes).to.deep.equal(['./infra/gateway/nginx.conf:/etc/nginx/nginx.conf:ro']);
    expect(gateway.depends_on).to.deep.equal({
      backoffice: { condition: 'service_healthy' },
      member: { condition: 'service_healthy' },
      'aggregation-worker': { condition: 'service_healthy' },
    });
    expect(gateway.healthcheck!.test.join(' ')).to.contain('http://127.0.0.1:8080/gateway/health');
  });

  it('when nginx.conf is read against the compose file, then its upstreams are the services and /api/member allows the subnet but not the Docker gateway address', () => {
    const conf = readRepoFile('infra/gateway/nginx.conf');
    for (const p of PROCESSES) {
      const port = environmentOf(compose, p.service, OPERATOR_ENV)[p.portVar];
      expect(conf).to.contain(`server ${p.service}:${port};`);
    }
    const member = /location \/api\/member \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    const rules = member
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^(allow|deny) /.test(l));
    expect(rules).to.deep.equal(['deny 172.28.0.1;', 'allow 172.28.0.0/16;', 'deny all;']);
    expect(conf).to.match(/^\s*listen 8080;$/m);
  });
});
