// Dates in free text, for answers and notes. One definition: the patterns are graders/documentation/dates.ts
// (ISO with or without a time, US numeric with 4- or 2-digit years, "April 20, 2023", "20 Apr 2023", "Apr 2023",
// "2023-04", "in 2023"); this module only checks that what they read is a real calendar date, reads a day-first
// numeric date when it cannot be month-first ("20/04/2023"), and adds the short "on 3/13" form that notes use for a
// date in the current year (only after a preposition: a bare "5/12" is a fraction or a blood pressure).
import { findDates, sameDate, type DatePrecision, type NoteDate } from '../../documentation/dates.ts';

export type { DatePrecision };
export { sameDate };

export interface TextDate {
  /** `YYYY-MM-DD`, `YYYY-MM`, `YYYY`, or `--MM-DD` for a day written without its year ("on 3/13"). */
  value: string;
  precision: DatePrecision;
  /** The date as written and its character span in the text. */
  text: string;
  start: number;
  end: number;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function realDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]) return false;
  return !(month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)));
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date read by the documentation patterns, checked against the calendar. Numeric `a/b/yyyy` is read month-first
 * (US); when the month would be over 12 and the other part is a month, it is day-first. Impossible dates are dropped.
 */
function checked(d: NoteDate): TextDate | undefined {
  const base = { text: d.text, start: d.start, end: d.end };
  if (d.precision !== 'day') {
    const month = d.precision === 'month' ? Number(d.value.slice(5, 7)) : 1;
    return month >= 1 && month <= 12 ? { ...base, value: d.value, precision: d.precision } : undefined;
  }
  const [year, month, day] = d.value.split('-').map(Number);
  if (realDay(year, month, day)) return { ...base, value: d.value, precision: 'day' };
  if (/\//.test(d.text) && realDay(year, day, month)) return { ...base, value: `${year}-${pad(day)}-${pad(month)}`, precision: 'day' };
  return undefined;
}

/** "on 3/13", "since 12/1": a month and day without a year, only after a preposition that introduces a date. */
const SHORT_DAY = /\b(?:on|since|from|dated|through|thru|until|till|by|before|after|as of)\s+(\d{1,2})\/(\d{1,2})\b(?!\/|\s*(?:cores?|of|out of)\b)/gi;

/** Every date in the text, in order of position. */
export function datesIn(text: string): TextDate[] {
  const out: TextDate[] = [];
  for (const d of findDates(text)) {
    const c = checked(d);
    if (c) out.push(c);
  }
  for (const m of text.matchAll(SHORT_DAY)) {
    const month = Number(m[1]);
    const day = Number(m[2]);
    const start = m.index! + m[0].length - `${m[1]}/${m[2]}`.length;
    const end = m.index! + m[0].length;
    if (!realDay(2000, month, day) || out.some((o) => start < o.end && end > o.start)) continue;
    out.push({ value: `--${pad(month)}-${pad(day)}`, precision: 'day', text: text.slice(start, end), start, end });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Spans that are written like dates, real or not ("2/30/2023" is a typo, not the numbers 2, 30 and 2023). */
export function dateLikeSpans(text: string): [number, number][] {
  return [...findDates(text).map((d): [number, number] => [d.start, d.end]), ...datesIn(text).map((d): [number, number] => [d.start, d.end])];
}

/**
 * Does a written date name the expected day (`YYYY-MM-DD` or a FHIR dateTime)? At the precision the text gave: a
 * month ("April 2023") matches any day of that month, when `precision` allows it.
 */
export function dateMatches(written: TextDate, expected: string, precision: DatePrecision = 'day'): boolean {
  const rank: Record<DatePrecision, number> = { year: 0, month: 1, day: 2 };
  if (rank[written.precision] < rank[precision]) return false;
  if (written.value.startsWith('--')) return false;
  return sameDate(expected, written);
}
