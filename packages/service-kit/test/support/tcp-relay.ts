import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpRelay {
  port: number;
  /** Cut every relayed connection: `end` closes them cleanly (FIN), `reset` with an RST. */
  cut: (how: 'end' | 'reset') => void;
  close: () => Promise<void>;
}

/**
 * A plain TCP relay on a loopback port to `host:port` (the real MariaDB), so a test can cut a
 * pool's connections the way a network or a stopping server does, without touching the server.
 */
export async function tcpRelay(host: string, port: number): Promise<TcpRelay> {
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = connect(port, host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.once('close', () => pairs.delete(pair));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: (how) => {
      for (const [client, upstream] of pairs) {
        if (how === 'reset') client.resetAndDestroy();
        else client.end();
        upstream.destroy();
      }
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
