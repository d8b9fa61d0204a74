// Numbers in free text with the unit written after them: "5.9 mmol/L.", "K 5.9,", "(5.9)", "5.9mmol/L",
// "42 mL/min/1.73 m2", "1,250". Numbers that belong to something else are not values: the parts of a date
// ("2024-03-13", "04/20/2023", "on 3/13", "April 20, 2023"), and the bounds of a range ("3.5-5.1", "ref 3.5 to 5.1")
// are left out or marked. Counts may be spelled ("five of twelve") and fractions read as "5/12 cores", "5 of 12",
// "5 out of 12".
import { dateLikeSpans } from './dates.ts';

export interface NumberInText {
  value: number;
  unit?: string;
  /** Character offset of the number in the text. */
  index: number;
  /** Offset just after the number and its unit. */
  end?: number;
  /** `range`: a bound of "3.5-5.1"; `denominator`: the 12 of "5 of 12"; `spelled`: written in words. */
  role?: 'range' | 'denominator';
  spelled?: boolean;
}

export interface NumbersOptions {
  /** Also read spelled numbers ("five", "twenty-one"): for counts. */
  words?: boolean;
  /** Keep the bounds of ranges (marked `role: 'range'`). Default false. */
  ranges?: boolean;
}

export interface FractionInText {
  numerator: number;
  denominator: number;
  index: number;
  end: number;
  text: string;
}

/** Units written as several parts that the generic pattern would cut ("mL/min/1.73 m2"). */
const COMPOUND_UNITS = [
  'mL/min/1.73\\s?m(?:2|²)', 'mL/min/\\{1\\.73_m2\\}', 'mL/min per 1.73\\s?m(?:2|²)', 'mm\\s?\\[?Hg\\]?', 'x\\s?10\\^?9/L', '10\\^9/L', '10\\*3/u?L', '10\\^3/u?L', 'K/[uµ]L',
  'kg/m(?:2|²)', 'beats/min', 'breaths/min',
];
/** A unit: a compound one, %, or letters (with UCUM brackets) optionally over letters ("mg/dL", "m[IU]/L"). No
 * trailing punctuation: the period in "5.9 mmol/L." ends the sentence, it is not part of the unit. */
const UNIT = `(?:${COMPOUND_UNITS.join('|')}|%|[a-zA-Zµμ°][a-zA-Zµμ[\\]{}_°]*(?:/[a-zA-Zµμ[\\]{}_]+(?:\\d(?![\\d.]))?)?)`;
const NUMBER = new RegExp(`(?<![\\w.])([-+]?(?:\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d*\\.?\\d+))(?:\\s?(${UNIT}))?(?![\\w])`, 'g');

/** Words right after a number that are not its unit. */
const NOT_UNITS = new Set([
  'and', 'or', 'on', 'in', 'at', 'to', 'of', 'the', 'is', 'was', 'with', 'from', 'for', 'since', 'times', 'x', 'days', 'day', 'years', 'year',
  'months', 'month', 'weeks', 'week', 'hours', 'cores', 'core', 'criteria', 'points', 'cells', 'patients',
  'y', 'yo', 'a', 'an', 'as', 'by', 'if', 'it', 'me', 'no', 'not', 'so', 'than', 'then', 'this', 'that', 'vs', 'per', 'out', 'are', 'were', 'be',
]);

const UNIT_SHAPE = /^(?:%|[a-zµμ°][a-zµμ°]{0,5}(?:\/[a-z0-9.[\]{}_µμ]+)?|\[[a-z_]+\]|\{[^}]+\}|m\[iu\]\/l)$/i;

function unitOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (new RegExp(`^(?:${COMPOUND_UNITS.join('|')})$`, 'i').test(raw)) return raw;
  if (NOT_UNITS.has(raw.toLowerCase())) return undefined;
  return UNIT_SHAPE.test(raw) ? raw : undefined;
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen',
  'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SPELLED = new RegExp(`\\b(?:(${TENS.slice(2).join('|')})(?:[-\\s](${ONES.slice(1, 10).join('|')}))?|(${ONES.join('|')})|(a hundred|one hundred))\\b`, 'gi');

/** The value of a spelled number from zero to one hundred ("twenty-one" = 21), or undefined. */
export function spelledNumber(word: string): number | undefined {
  const m = new RegExp(`^${SPELLED.source}$`, 'i').exec(word.trim());
  if (!m) return undefined;
  if (m[4]) return 100;
  if (m[3]) return ONES.indexOf(m[3].toLowerCase());
  return TENS.indexOf(m[1].toLowerCase()) * 10 + (m[2] ? ONES.indexOf(m[2].toLowerCase()) : 0);
}

/** "no one", "one of the", "the one": the pronoun, not a count. */
const PRONOUN_ONE = /\b(?:no|any|every|some|each|the|this|that|which)\s+one\b|\bone\s+(?:another|day|of the|or (?:two|more|another))\b/i;

/** Character spans of dates and of the body-surface part of eGFR units ("/1.73 m2"): they hold numbers that are
 * no values. */
function dateSpans(text: string): [number, number][] {
  const bsa = [...text.matchAll(/\/\s?1\.73\s?(?:m2|m²|_m2)|\{1\.73_m2\}/gi)].map((m): [number, number] => [m.index!, m.index! + m[0].length]);
  return [...dateLikeSpans(text), ...bsa];
}

/** "3.5-5.1", "3.5 – 5.1", and "3.5 to 5.1" after a reference-range word: both bounds. */
const RANGE = /(?<![\w.])(\d*\.?\d+)\s*(?:[-–—]|\bto\b)\s*(\d*\.?\d+)(?![\w.]*\d)/g;
const RANGE_WORD = /\b(?:ref(?:erence)?|normal|range|nl|rr|between|goal|target)\b[^.;\n]{0,20}$/i;

function rangeSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of text.matchAll(RANGE)) {
    const before = text.slice(0, m.index);
    const referenceContext = RANGE_WORD.test(before) || /\(\s*$/.test(before);
    // "from 45 to 28" is two values in time, a range only after "ref", "normal" ...; "3.5-5.1" is a range, and so is
    // "3.5 - 5.1" in a reference context (a spaced dash elsewhere is punctuation: "was 45 - 6 months ago").
    if (/\bto\b/i.test(m[0]) ? !referenceContext : /\s/.test(m[0]) && !referenceContext) continue;
    out.push([m.index!, m.index! + m[0].length]);
  }
  return out;
}

const inside = (spans: [number, number][], at: number) => spans.some(([s, e]) => at >= s && at < e);

/** Every number in the text with the unit written right after it, if any. Date parts are never numbers. */
export function numbersIn(text: string, options: NumbersOptions = {}): NumberInText[] {
  const dates = dateSpans(text);
  const ranges = rangeSpans(text);
  const denominators = new Map(fractionsIn(text).map((f) => [f.end, f]));
  const out: NumberInText[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const at = m.index!;
    if (inside(dates, at)) continue;
    const value = Number(m[1].replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    const unit = unitOf(m[2]);
    const end = at + (unit ? m[0].length : m[1].length);
    const n: NumberInText = { value, ...(unit ? { unit } : {}), index: at, end };
    if (inside(ranges, at)) {
      if (!options.ranges) continue;
      n.role = 'range';
    }
    if ([...denominators.values()].some((f) => at > f.index && at + m[1].length === f.end)) n.role = 'denominator';
    out.push(n);
  }
  if (options.words) {
    for (const m of text.matchAll(SPELLED)) {
      const at = m.index!;
      if (PRONOUN_ONE.test(text.slice(Math.max(0, at - 8), at + m[0].length + 12)) && /^one$/i.test(m[0])) continue;
      const value = spelledNumber(m[0])!;
      const n: NumberInText = { value, index: at, end: at + m[0].length, spelled: true };
      if ([...denominators.values()].some((f) => at > f.index && at + m[0].length === f.end)) n.role = 'denominator';
      out.push(n);
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

const COUNT = `(\\d+|${SPELLED.source.replace(/\((?!\?)/g, '(?:')})`;
const FRACTION = new RegExp(`(?<![\\w./-])${COUNT}\\s*(?:/|\\bof(?:\\s+the)?\\b|\\bout\\s+of(?:\\s+the)?\\b)\\s*${COUNT}(?![\\w./]*\\d)`, 'gi');

/**
 * Counts written as a part of a whole: "5/12 cores", "5 of 12", "5 out of the 12", "five of twelve". A slash pair
 * is a fraction only before a noun other than a unit ("5/12 cores"), never "140/90" or a date.
 */
export function fractionsIn(text: string): FractionInText[] {
  const dates = dateSpans(text);
  const out: FractionInText[] = [];
  for (const m of text.matchAll(FRACTION)) {
    const at = m.index!;
    const end = at + m[0].length;
    if (inside(dates, at)) continue;
    const num = /^\d+$/.test(m[1]) ? Number(m[1]) : spelledNumber(m[1]);
    const den = /^\d+$/.test(m[2]) ? Number(m[2]) : spelledNumber(m[2]);
    if (num === undefined || den === undefined || den === 0 || num > den) continue;
    if (m[0].includes('/') && !/^\s+(?!(?:mg|mcg|ml|mmhg|mm|kg|g|l|dl|min|h|hr|hrs|d|wk|mo)\b)[a-z]/i.test(text.slice(end, end + 12))) continue;
    out.push({ numerator: num, denominator: den, index: at, end, text: m[0] });
  }
  return out;
}
