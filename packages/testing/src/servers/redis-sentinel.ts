import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedis } from '@bo/service-kit';
import { freePort } from '../child-process.ts';
import { executable, startedServer, startPrivateRedis, type PrivateRedis, type PrivateServer } from '../private-servers.ts';
import { testLogger } from '../test-logger.ts';

/**
 * A Redis master, its replica and one Sentinel watching them (quorum 1, down after 1 s), all
 * private to the test on loopback: `failover()` kills the master and resolves once the Sentinel
 * has promoted the replica.
 */
export interface RedisWithSentinel {
  master: PrivateRedis;
  replica: PrivateRedis;
  sentinel: PrivateServer;
  /** REDIS_SENTINELS / REDIS_SENTINEL_NAME for the services. */
  env: { REDIS_SENTINELS: string; REDIS_SENTINEL_NAME: string };
  /** The port of the master the Sentinel names now. */
  masterPort: () => Promise<number>;
  /** SIGKILL the master; resolves with the new master's port. */
  failover: () => Promise<number>;
  destroy: () => Promise<void>;
}

const NAME = 'bo-redis';

/** Resolves once the replica has loaded the master's data and follows its stream. */
async function replicaInSync(url: string): Promise<void> {
  const client = createRedis(url, testLogger('replica'));
  try {
    const deadline = Date.now() + 30_000;
    while (!(await client.info('replication')).includes('master_link_status:up')) {
      if (Date.now() > deadline) throw new Error('the Redis replica did not sync with its master within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    client.disconnect();
  }
}

export async function startRedisWithSentinel(): Promise<RedisWithSentinel> {
  const master = await startPrivateRedis({ appendonly: true });
  const replica = await startPrivateRedis({ appendonly: true, replicaOf: master.port });
  await replicaInSync(replica.url);
  const dir = mkdtempSync(join(tmpdir(), 'bo-sentinel-'));
  const port = await freePort();
  // Sentinel rewrites its config file as it learns the set, so the file lives in its own directory.
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${NAME} 127.0.0.1 ${master.port} 1`,
      `sentinel down-after-milliseconds ${NAME} 1000`,
      `sentinel failover-timeout ${NAME} 10000`,
      `sentinel parallel-syncs ${NAME} 1`,
      '',
    ].join('\n'),
  );
  const sentinel = await startedServer({
    label: `private Redis Sentinel on ${port}`,
    command: executable('redis-server'),
    args: [conf, '--sentinel'],
    dir,
    port,
    readyLine: '+monitor master',
    readyWithinMs: 30_000,
  });

  const masterPort = async () => {
    const client = createRedis(`redis://127.0.0.1:${port}`, testLogger('sentinel'));
    try {
      const [, p] = (await client.call('SENTINEL', 'get-master-addr-by-name', NAME)) as [string, string];
      return Number(p);
    } finally {
      client.disconnect();
    }
  };
  return {
    master,
    replica,
    sentinel,
    env: { REDIS_SENTINELS: `127.0.0.1:${port}`, REDIS_SENTINEL_NAME: NAME },
    masterPort,
    failover: async () => {
      const before = await masterPort();
      await master.kill();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const now = await masterPort().catch(() => before);
        if (now !== before) return now;
        if (Date.now() > deadline) throw new Error('the Sentinel did not promote the replica within 30 s');
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    destroy: async () => {
      await Promise.all([sentinel.destroy(), replica.destroy(), master.destroy()]);
    },
  };
}
