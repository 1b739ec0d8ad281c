import { cumulative, drawCumulative } from './random.ts';

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `HH:mm:ss` of every second of a day, built once: formatting is the hot path of the loader. */
const HMS: readonly string[] = Array.from(
  { length: 86_400 },
  (_, s) => `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`,
);

export const hms = (secondOfDay: number): string => HMS[secondOfDay]!;

/** Shopping by hour: quiet at night, a lunch peak and the evening peak around 21–22 h. */
export const SHOPPING_HOURS = cumulative([
  3.0, 1.8, 1.1, 0.7, 0.5, 0.6, 1.2, 2.4, 3.8, 4.8, 5.4, 5.8, 6.3, 5.6, 5.1, 5.0, 5.0, 5.2, 5.5, 6.4, 7.4, 8.0, 7.2, 5.0,
]);

/** Back-office processing (shipping confirmation, returns) happens in office hours. */
export const OFFICE_HOURS = cumulative([
  0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.5, 2.0, 6.0, 8.0, 8.0, 4.0, 6.0, 8.0, 8.0, 7.0, 6.0, 3.0, 1.0, 0.6, 0.4, 0.2, 0.1,
]);

/** A second of the day drawn from an hourly profile. */
export function drawSecond(hours: Float64Array, next: () => number): number {
  return drawCumulative(hours, next()) * 3600 + Math.floor(next() * 3600);
}
