import { platformNow, platformNowMillis } from '@bo/db';

/** Platform local times of one moment: seconds for DATETIME columns, milliseconds for DATETIME(3). */
export interface Moment {
  seconds: string;
  millis: string;
  /** Local time `seconds` from this moment. */
  plus: (seconds: number) => string;
}

export function platformMoment(timeZone: string, instant = new Date()): Moment {
  const seconds = platformNow(timeZone, instant);
  return {
    seconds,
    millis: platformNowMillis(timeZone, instant),
    plus: (s) => platformNow(timeZone, new Date(instant.getTime() + s * 1000)),
  };
}
