import { addDays, platformNow, platformToday } from '@bo/db';

/**
 * What a scheduled run is about, resolved when it runs, in the platform zone: the 09:00 run
 * builds the previous local day whatever the process's TZ, and an hourly run the hours just
 * ended (a run delayed past midnight still resolves from the real clock).
 */

export const previousLocalDay = (timeZone: string, now: Date): string => addDays(platformToday(timeZone, now), -1);

/** The last `count` complete local days before today, oldest first. */
export function recentLocalDays(timeZone: string, now: Date, count: number): string[] {
  const today = platformToday(timeZone, now);
  return Array.from({ length: count }, (_, i) => addDays(today, i - count));
}

/** The last `count` complete local hours, oldest first; the last one is the hour just ended. */
export function recentLocalHours(timeZone: string, now: Date, count: number): { day: string; hour: number }[] {
  const local = platformNow(timeZone, now);
  let day = local.slice(0, 10);
  let hour = Number(local.slice(11, 13));
  const out: { day: string; hour: number }[] = [];
  for (let i = 0; i < count; i++) {
    hour -= 1;
    if (hour < 0) {
      hour = 23;
      day = addDays(day, -1);
    }
    out.push({ day, hour });
  }
  return out.reverse();
}
