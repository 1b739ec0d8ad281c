import { formatInZone } from '@bo/db';

/** `yyyy-MM-dd HH:mm:ss.SSS` in the platform zone, for the DATETIME(3) columns of the run log. */
export const platformTimestamp = (timeZone: string, instant = new Date()): string =>
  `${formatInZone(instant, timeZone)}.${String(instant.getMilliseconds()).padStart(3, '0')}`;
