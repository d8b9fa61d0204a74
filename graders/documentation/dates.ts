// Dates as notes write them (ISO, US numeric, month names; day, month or year precision) and date comparison at the
// precision the note gave: "March 2026" matches any day of that month.

export type DatePrecision = 'day' | 'month' | 'year';

export interface NoteDate {
  start: number;
  end: number;
  text: string;
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY`. */
  value: string;
  precision: DatePrecision;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?';

const pad = (n: number) => String(n).padStart(2, '0');
const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

const PATTERNS: { re: RegExp; make(m: RegExpExecArray): { value: string; precision: DatePrecision } | undefined }[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?\b/g, make: (m) => ({ value: `${m[1]}-${m[2]}-${m[3]}`, precision: 'day' }) },
  { re: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, make: (m) => ({ value: `${m[3]}-${pad(+m[1])}-${pad(+m[2])}`, precision: 'day' }) },
  { re: /\b(\d{1,2})\/(\d{1,2})\/(\d{2})\b(?!\/)/g, make: (m) => (+m[1] <= 12 && +m[2] <= 31 ? { value: `20${m[3]}-${pad(+m[1])}-${pad(+m[2])}`, precision: 'day' } : undefined) },
  { re: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'), make: (m) => ({ value: `${m[3]}-${pad(monthOf(m[1]))}-${pad(+m[2])}`, precision: 'day' }) },
  { re: new RegExp(`\\b(\\d{1,2})\\s+${MONTH}\\s+(\\d{4})\\b`, 'gi'), make: (m) => ({ value: `${m[3]}-${pad(monthOf(m[2]))}-${pad(+m[1])}`, precision: 'day' }) },
  { re: /\b(\d{4})-(\d{2})\b(?!-\d)/g, make: (m) => (+m[2] >= 1 && +m[2] <= 12 ? { value: `${m[1]}-${m[2]}`, precision: 'month' } : undefined) },
  { re: new RegExp(`\\b${MONTH}\\s+(\\d{4})\\b`, 'gi'), make: (m) => ({ value: `${m[2]}-${pad(monthOf(m[1]))}`, precision: 'month' }) },
  { re: /\b(?:in|during|since|from)\s+((?:19|20)\d{2})\b/gi, make: (m) => ({ value: m[1], precision: 'year' }) },
];

/** Every date in the text, earliest position first; overlapping matches keep the most precise (first pattern). */
export function findDates(text: string): NoteDate[] {
  const out: NoteDate[] = [];
  for (const { re, make } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const d = make(m);
      if (!d) continue;
      const start = m.index + (m[0].length - m[0].trimStart().length);
      const end = m.index + m[0].length;
      if (out.some((o) => start < o.end && end > o.start)) continue;
      out.push({ start, end, text: text.slice(start, end), ...d });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Does a FHIR dateTime fall on the note's date (at the note's precision)? Both the local date written in the
 * timestamp and its UTC date count: a note written in local time may quote either.
 */
export function sameDate(fhirDateTime: string | undefined, date: { value: string; precision: DatePrecision }): boolean {
  if (!fhirDateTime) return false;
  const n = date.value.length;
  if (fhirDateTime.slice(0, n) === date.value) return true;
  const ms = Date.parse(fhirDateTime);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, n) === date.value;
}
