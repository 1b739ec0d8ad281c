import { seedDatabases, type SeedProgress, type SeedResult } from './seed-databases.ts';

/** The demo set: 90 days ending now, about 200,000 order events, 2,000 goods. */
export const DEMO_SIZE = { seed: 42, days: 90, goods: 2000, events: 200_000 } as const;

/**
 * Loads the demo set (the start script calls this when the bo database has no goods). The
 * databases must exist and be migrated.
 */
export function seedDemo(options: {
  boUrl: string;
  memberUrl?: string;
  ifEmpty?: boolean;
  timeZone?: string;
  onProgress?: (p: SeedProgress) => void;
}): Promise<SeedResult> {
  return seedDatabases({
    ...DEMO_SIZE,
    boUrl: options.boUrl,
    memberUrl: options.memberUrl,
    ifEmpty: options.ifEmpty ?? true,
    timeZone: options.timeZone ?? process.env.PLATFORM_TIME_ZONE ?? 'Asia/Seoul',
    onProgress: options.onProgress,
  });
}
