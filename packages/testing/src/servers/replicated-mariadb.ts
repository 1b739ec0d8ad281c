import { createKnex, type Knex } from '@bo/db';
import { startPrivateMariaDb, type PrivateMariaDb } from '../private-servers.ts';

/**
 * A primary and a replica, two private MariaDB servers on loopback: the replica follows the
 * primary with GTIDs (MASTER_USE_GTID) from the primary's first event, so every database the
 * test creates on the primary appears on the replica.
 */
export interface ReplicatedMariaDb {
  primary: PrivateMariaDb;
  replica: PrivateMariaDb;
  /** Resolves once the replica has applied everything the primary has written so far. */
  caughtUp: () => Promise<void>;
  /** Stop or start the replica's applier (SQL thread): a replica that falls behind. */
  pauseApplier: () => Promise<void>;
  resumeApplier: () => Promise<void>;
  destroy: () => Promise<void>;
}

const adminOf = (serverUrl: string): Knex => createKnex(serverUrl, { poolMax: 1 });

async function sql<T = Record<string, unknown>>(serverUrl: string, statement: string, bindings: unknown[] = []): Promise<T[]> {
  const admin = adminOf(serverUrl);
  try {
    const [rows] = (await admin.raw(statement, bindings as Knex.RawBinding[])) as [T[]];
    return rows;
  } finally {
    await admin.destroy();
  }
}

export async function startReplicatedMariaDb(): Promise<ReplicatedMariaDb> {
  const [primary, replica] = await Promise.all([
    startPrivateMariaDb({ replication: { serverId: 1 } }),
    startPrivateMariaDb({ replication: { serverId: 2 } }),
  ]);
  try {
    await sql(
      replica.serverUrl,
      `CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = ${primary.port}, MASTER_USER = 'root', MASTER_PASSWORD = '', MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1`,
    );
    await sql(replica.serverUrl, 'START SLAVE');
  } catch (err) {
    await Promise.all([primary.destroy(), replica.destroy()]);
    throw err;
  }
  return {
    primary,
    replica,
    caughtUp: async () => {
      const [pos] = await sql<{ pos: string }>(primary.serverUrl, 'SELECT @@gtid_binlog_pos AS pos');
      const [waited] = await sql<{ r: number }>(replica.serverUrl, 'SELECT MASTER_GTID_WAIT(?, 60) AS r', [pos!.pos]);
      if (waited!.r !== 0) throw new Error(`the replica did not reach the primary's GTID position ${pos!.pos} within 60 s`);
    },
    pauseApplier: async () => {
      await sql(replica.serverUrl, 'STOP SLAVE SQL_THREAD');
    },
    resumeApplier: async () => {
      await sql(replica.serverUrl, 'START SLAVE SQL_THREAD');
    },
    destroy: async () => {
      await Promise.all([replica.destroy(), primary.destroy()]);
    },
  };
}
