import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { runLoad } from '../src/infra/http-load.ts';

/**
 * A load stopped at its time cap closes the connections still waiting; the server goes on with
 * their requests. The next measurement must not start while it does.
 */
describe('runLoad stopped at its time cap', () => {
  let server: Server;
  let url: string;
  let busy = 0;

  before(async () => {
    // Each request "works" 400 ms whether or not its client is still there, like a running query.
    server = createServer((_req, res) => {
      busy += 1;
      setTimeout(() => {
        busy -= 1;
        res.end('ok');
      }, 400);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('when it returns, then the server has finished the requests of the closed connections', async () => {
    const r = await runLoad({ url, connections: 4, amount: 1000, maxSeconds: 1 });
    expect(r.latencies.length, 'stopped early').to.be.below(1000);
    expect(busy, 'requests still running on the server').to.equal(0);
  });
});
