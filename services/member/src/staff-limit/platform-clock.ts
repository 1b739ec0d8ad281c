import { platformNow, platformNowMillis } from '@bo/db';

/** Platform local times of one moment: seconds for DATETIME columns, milliseconds for DATETIME(3). */
export interface Moment {
  seconds: string;
  millis: string;
  /** Local time `seconds` from this moment. */
  plus: (seconds: number) => string;
}

export function platformMoment(timeZone: string, instant = new Date()): Moment {
  // One zone conversion per moment (each costs tens of µs on every change): the seconds are the
  // millisecond text without its fraction.
  const millis = platformNowMillis(timeZone, instant);
  return {
    seconds: millis.slice(0, 19),
    millis,
    plus: (s) => platformNow(timeZone, new Date(instant.getTime() + s * 1000)),
  };
}
