import type { Router } from 'express';
import type { BackofficeDeps } from '../app.ts';

/** Operations of this component; built by its issue. */
export function mountStatisticsRoutes(_router: Router, _deps: BackofficeDeps): void {}
