import type { Express, RequestHandler, Router } from 'express';
import type { ServiceName } from '@bo/contracts';
import { createServiceApp, type HardeningOptions, type Logger, type Probe } from '../../src/index.ts';
import { captureLogs } from '@bo/testing';

export const PREFIX = '/api/kit';

/** A service app built the way every service builds it, with routes of the test's choosing. */
export function kitApp(
  options: {
    routes?: (router: Router) => void;
    guards?: RequestHandler[];
    probes?: Record<string, Probe>;
    logger?: Logger;
    docs?: ServiceName;
    hardening?: HardeningOptions;
  } = {},
): Express {
  return createServiceApp({
    name: 'kit',
    ...(options.docs ? { docs: options.docs } : {}),
    ...(options.hardening ? { hardening: options.hardening } : {}),
    prefix: PREFIX,
    logger: options.logger ?? captureLogs().logger,
    probes: options.probes ?? {},
    guards: options.guards ?? [],
    routes: options.routes ?? (() => {}),
  });
}
