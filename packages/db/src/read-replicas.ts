import { createConnection } from 'mysql2/promise';
import { connectionOf, createKnexOn, redact, type Knex, type KnexOptions } from './connection.ts';

/**
 * A read pool on one or more replicas of a primary. Each new pool connection goes to a replica
 * that answers, replicates and is at most `maxLagSeconds` behind (round robin among those);
 * when none is, to the primary (`whenNoReplica: 'primary'`) or nowhere: the query fails with
 * `ReadReplicaUnavailableError`, which the services answer 503 (`'unavailable'`). A pooled
 * connection whose target is no longer the choice is dropped when the pool hands it out, so a
 * replica that falls behind stops serving within one check.
 */
export interface ReadReplicaOptions {
  primaryUrl: string;
  replicaUrls: string[];
  /** A replica further behind than this is not read from (Seconds_Behind_Master). */
  maxLagSeconds: number;
  /** How often the replicas are checked in the background. */
  checkIntervalMs: number;
  whenNoReplica: 'primary' | 'unavailable';
}

/** No replica is up and current, and the read pool may not fall back to the primary. */
export class ReadReplicaUnavailableError extends Error {
  constructor(reason: string) {
    super(`no read replica is available or current enough: ${reason}`);
    this.name = 'ReadReplicaUnavailableError';
  }
}

interface Target {
  key: string;
  url: string;
}

export interface ReplicaState {
  url: string;
  current: boolean;
  reason: string;
  checkedAt: number;
}

export interface ReadPool {
  knex: Knex;
  /** The last check of each replica (for /ready and the tests). */
  states: () => ReplicaState[];
  /** Check every replica now. */
  refresh: () => Promise<void>;
  /** Stop checking and close the pool. */
  destroy: () => Promise<void>;
}

const keyOf = (host: string, port: number) => `${host}:${port}`;

/** One replica's replication status: running both threads and not too far behind. */
async function checkReplica(url: string, maxLagSeconds: number): Promise<{ current: boolean; reason: string }> {
  const c = connectionOf(url);
  const conn = await createConnection({ host: c.host, port: c.port, user: c.user, password: c.password, connectTimeout: 2_000 });
  try {
    // MariaDB 10.5+ and MySQL 8.0.22+ both know this form; their column names differ.
    const [rows] = await conn.query('SHOW REPLICA STATUS');
    const row = (rows as Record<string, unknown>[])[0];
    if (!row) return { current: false, reason: 'not a replica (no replication configured)' };
    const io = row.Slave_IO_Running ?? row.Replica_IO_Running;
    const sql = row.Slave_SQL_Running ?? row.Replica_SQL_Running;
    const lagValue = row.Seconds_Behind_Master ?? row.Seconds_Behind_Source;
    const lag = lagValue === null || lagValue === undefined ? null : Number(lagValue);
    if (io !== 'Yes' || sql !== 'Yes') return { current: false, reason: `replication stopped (IO ${String(io)}, SQL ${String(sql)})` };
    if (lag === null || Number(lag) > maxLagSeconds)
      return { current: false, reason: `${String(lag)} s behind (limit ${maxLagSeconds} s)` };
    return { current: true, reason: `${String(lag)} s behind` };
  } finally {
    await conn.end().catch(() => undefined);
  }
}

export function createReadPool(options: ReadReplicaOptions, knexOptions: KnexOptions = {}): ReadPool {
  if (!options.replicaUrls.length) throw new Error('createReadPool needs at least one replica URL');
  const primary = connectionOf(options.primaryUrl);
  const primaryKey = keyOf(primary.host, primary.port);
  const replicas: Target[] = options.replicaUrls.map((url) => {
    const c = connectionOf(url);
    return { key: keyOf(c.host, c.port), url };
  });
  const states = new Map<string, ReplicaState>(
    replicas.map((r) => [r.key, { url: redact(r.url), current: false, reason: 'not checked yet', checkedAt: 0 }]),
  );

  let inFlight: Promise<void> | undefined;
  const refresh = (): Promise<void> =>
    (inFlight ??= Promise.all(
      replicas.map(async (r) => {
        const result = await checkReplica(r.url, options.maxLagSeconds).catch((err: Error) => ({
          current: false,
          reason: `unreachable (${(err as { code?: string }).code ?? err.message})`,
        }));
        states.set(r.key, { url: redact(r.url), ...result, checkedAt: Date.now() });
      }),
    ).then(() => {
      inFlight = undefined;
    }));

  const currentReplicas = () => replicas.filter((r) => states.get(r.key)?.current);
  let next = 0;

  /** Asked by the pool for each new connection: checked now, because a replica may have stopped since the last round. */
  const choose = async () => {
    await refresh();
    const usable = currentReplicas();
    if (usable.length) return connectionOf(usable[next++ % usable.length]!.url);
    if (options.whenNoReplica === 'primary') return primary;
    throw new ReadReplicaUnavailableError([...states.values()].map((s) => `${s.url} ${s.reason}`).join('; '));
  };

  /** A pooled connection may serve while its target is still what `choose` would pick from. */
  const validate = (conn: { config: { host: string; port: number } }) => {
    const key = keyOf(conn.config.host, conn.config.port);
    const usable = currentReplicas();
    if (key === primaryKey && !replicas.some((r) => r.key === primaryKey)) return usable.length === 0;
    return usable.some((r) => r.key === key);
  };

  const knex = createKnexOn(primary, knexOptions, { chooseTarget: choose, validate });
  const timer = setInterval(() => void refresh(), options.checkIntervalMs);
  timer.unref();
  void refresh();

  return {
    knex,
    states: () => [...states.values()],
    refresh,
    destroy: async () => {
      clearInterval(timer);
      await inFlight;
      await knex.destroy();
    },
  };
}
