import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitOf, freePort } from '../child-process.ts';

/**
 * infra/gateway/nginx.conf run by a real nginx on loopback, each upstream given as the ports of
 * its copies (several copies: the round robin of `docker compose --scale` / deploy.replicas).
 * The compose network 172.28.0.0/16 (Docker's gateway 172.28.0.1 denied) is played by
 * 127.0.0.0/29 with 127.0.0.1 denied: send internal calls from 127.0.0.2.
 */

const started = new Set<ChildProcess>();
// mocha --exit ends with process.exit: no nginx is left behind.
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

const GATEWAY_CONF = fileURLToPath(new URL('../../../../infra/gateway/nginx.conf', import.meta.url));

export interface GatewayUpstreams {
  backoffice: number[];
  member: number[];
  worker: number[];
}

export interface RunningGateway {
  port: number;
  /** What `nginx -t` printed for the rendered config. */
  checkOutput: string;
  /** The access log's JSON lines so far. */
  accessLog: () => { uri: string; status: number; upstream: string }[];
  /** The access log line holding `text`; nginx writes it after the answer has left, so this waits briefly. */
  accessLogLine: (text: string) => Promise<string>;
  stop: () => Promise<void>;
}

function nginxBinary(): string {
  for (const candidate of [process.env.NGINX_BIN, 'nginx', '/usr/sbin/nginx'].filter(Boolean) as string[])
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  throw new Error('nginx is not installed (apt-get install -y nginx), or set NGINX_BIN');
}

export function renderGatewayConf(prefix: string, port: number, upstreams: GatewayUpstreams): string {
  const servers = (ports: number[]) => ports.map((p) => `server 127.0.0.1:${p};`).join('\n        ');
  const swaps: [string, string][] = [
    ['server backoffice:3001;', servers(upstreams.backoffice)],
    ['server member:3002;', servers(upstreams.member)],
    ['server aggregation-worker:3003;', servers(upstreams.worker)],
    ['listen 8080;', `listen 127.0.0.1:${port};`],
    // A child's stdio here is a socket, which nginx cannot open as /dev/stdout: log to files.
    ['error_log /dev/stderr warn;', `error_log ${join(prefix, 'error.log')} warn;`],
    ['access_log /dev/stdout json;', `access_log ${join(prefix, 'access.log')} json;`],
    ['deny 172.28.0.1;', 'deny 127.0.0.1;'],
    ['allow 172.28.0.0/16;', 'allow 127.0.0.0/29;'],
    ['worker_processes auto;', 'worker_processes 1;'],
    [
      'http {',
      `http {\n    ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(prefix, t)};`).join('\n    ')}`,
    ],
  ];
  let conf = readFileSync(GATEWAY_CONF, 'utf8');
  for (const [from, to] of swaps) {
    if (conf.split(from).length !== 2) throw new Error(`infra/gateway/nginx.conf should hold "${from}" once; update nginx-gateway.ts`);
    conf = conf.replace(from, to);
  }
  return conf;
}

export async function startNginxGateway(upstreams: GatewayUpstreams): Promise<RunningGateway> {
  const nginx = nginxBinary();
  const port = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'bo-gateway-'));
  // nginx workers run as an unprivileged user when the tests run as root.
  chmodSync(prefix, 0o755);
  const confPath = join(prefix, 'nginx.conf');
  writeFileSync(confPath, renderGatewayConf(prefix, port, upstreams));
  const pid = `pid ${join(prefix, 'nginx.pid')};`;
  const check = spawnSync(nginx, ['-t', '-p', prefix, '-c', confPath, '-g', pid], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const child: ChildProcess = spawn(nginx, ['-p', prefix, '-c', confPath, '-g', `daemon off; ${pid}`], { stdio: 'ignore' });
  started.add(child);
  child.once('exit', () => started.delete(child));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exitOf(child);
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/gateway/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = readFileSync(join(prefix, 'error.log'), 'utf8');
      await stop();
      throw new Error(`nginx did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const lines = () => readFileSync(join(prefix, 'access.log'), 'utf8').split('\n').filter(Boolean);
  const accessLog = () => lines().map((l) => JSON.parse(l) as { uri: string; status: number; upstream: string });
  const accessLogLine = async (text: string): Promise<string> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const line = lines().find((l) => l.includes(text));
      if (line) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no access log line contains ${text}`);
  };
  return { port, checkOutput: check.stderr, accessLog, accessLogLine, stop };
}
