// Dataset time: everything is placed relative to a fixed reference date recorded in the dataset metadata.
export const DEFAULT_REFERENCE_DATE = '2025-06-30T09:00:00Z';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const YEAR = 365.25 * DAY;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DDThh:mm:ss` with an explicit offset (`Z` when offsetMinutes is 0), seconds precision. */
export function formatInstant(ms: number, offsetMinutes = 0): string {
  const d = new Date(Math.round(ms / 1000) * 1000 + offsetMinutes * MINUTE);
  const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (offsetMinutes === 0) return base + 'Z';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${base}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function formatDate(ms: number): string {
  return formatInstant(ms).slice(0, 10);
}

export function yearsBetween(from: number, to: number): number {
  return (to - from) / YEAR;
}
