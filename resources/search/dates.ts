// FHIR date/dateTime/instant values as millisecond ranges [start, end] (both inclusive), by precision
// (FHIR R4 3.1.1.4.6 "date": a value stands for the whole range its precision allows).
// A value without a time zone is taken as UTC (the spec leaves it to the server; one fixed choice keeps search
// deterministic).

export interface Range {
  start: number;
  end: number;
}

export const MIN_TIME = -8.64e15;
export const MAX_TIME = 8.64e15;

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

/** Milliseconds of a UTC instant (Date.UTC would map years 0-99 to 1900-1999). Module-level: dateRange is hot. */
function utc(yy: number, mm: number, dd: number, hh = 0, mn = 0, ss = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(yy, mm, dd);
  date.setUTCHours(hh, mn, ss, ms);
  return date.getTime();
}

/** The range a FHIR date, dateTime or instant string covers; undefined when it is not one. */
export function dateRange(text: string): Range | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  if (h !== undefined && mi === undefined) return undefined;
  const year = Number(y);
  const month = mo ? Number(mo) - 1 : 0;
  const day = d ? Number(d) : 1;
  if (month > 11 || day < 1 || day > 31) return undefined;
  let offset = 0;
  if (tz && tz !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
  }
  if (!mo) return { start: utc(year, 0, 1), end: utc(year + 1, 0, 1) - 1 };
  if (!d) return { start: utc(year, month, 1), end: utc(year, month + 1, 1) - 1 };
  if (!h) return { start: utc(year, month, day), end: utc(year, month, day + 1) - 1 };
  const hour = Number(h);
  const minute = Number(mi);
  if (hour > 24 || minute > 59) return undefined;
  if (s === undefined) {
    const start = utc(year, month, day, hour, minute) - offset;
    return { start, end: start + 60000 - 1 };
  }
  const second = Number(s);
  if (second > 60) return undefined;
  if (frac === undefined) {
    const start = utc(year, month, day, hour, minute, second) - offset;
    return { start, end: start + 999 };
  }
  const digits = frac.slice(1);
  const ms = Number((digits + '000').slice(0, 3));
  const start = utc(year, month, day, hour, minute, second, ms) - offset;
  // Sub-millisecond precision collapses to the millisecond.
  return { start, end: digits.length >= 3 ? start : start + Math.pow(10, 3 - digits.length) - 1 };
}
