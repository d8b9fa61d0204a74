// Answer matching with numeric tolerance and units: "191 mg/dL", "191", {"ldl": 191} and "LDL was 1.91 g/L" all
// equal 191 mg/dL. Answers may be text or JSON (an object, or text holding JSON).
import { convert, normalizeUnit, withinTolerance } from './units.ts';
import { matchOf, type Match } from './match.ts';

export interface NumberInText {
  value: number;
  unit?: string;
  /** Character offset in the text. */
  index: number;
}

/** The answer as text: strings as they are, anything else as JSON. */
export function answerText(answer: unknown): string {
  if (answer === undefined || answer === null) return '';
  return typeof answer === 'string' ? answer : JSON.stringify(answer);
}

/** The answer as an object when it is one, or a string holding one (the finish tool takes a string). */
export function answerObject(answer: unknown): Record<string, unknown> | undefined {
  if (answer && typeof answer === 'object' && !Array.isArray(answer)) return answer as Record<string, unknown>;
  if (typeof answer !== 'string') return undefined;
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const parsed = JSON.parse(answer.slice(start, end + 1)) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A field of a JSON answer, found case- and separator-insensitively (`hba1c`, `HbA1c`, `hb_a1c`). */
export function answerField(answer: unknown, ...names: string[]): unknown {
  const object = answerObject(answer);
  if (!object) return undefined;
  const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const wanted = names.map(key);
  for (const [k, v] of Object.entries(object)) if (wanted.includes(key(k))) return v;
  return undefined;
}

const NUMBER = /(?<![\w.])([-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)\s*(%|[a-zA-Zµ[\]{}]+(?:\/[a-zA-Z0-9.[\]{}_]+)?)?/g;

/** Every number in a text with the unit written right after it, if any. Dates' parts are skipped. */
export function numbersIn(text: string): NumberInText[] {
  const out: NumberInText[] = [];
  const withoutDates = text.replace(/\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?/g, (m) => ' '.repeat(m.length));
  for (const m of withoutDates.matchAll(NUMBER)) {
    const value = Number(m[1].replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    const unit = m[2] && /^(%|[a-zµ]{1,6}(\/[a-z0-9.[\]{}_]+)?|\[[a-z_]+\]|\{[^}]+\})$/i.test(m[2]) && !STOP_WORDS.has(m[2].toLowerCase()) ? m[2] : undefined;
    out.push({ value, ...(unit ? { unit } : {}), index: m.index ?? 0 });
  }
  return out;
}

const STOP_WORDS = new Set(['and', 'or', 'on', 'in', 'at', 'to', 'of', 'the', 'is', 'was', 'with', 'from', 'for', 'since', 'times', 'x', 'days', 'day', 'years', 'y', 'yo']);

export interface NumberExpectation {
  value: number;
  unit?: string;
  tolerance?: { absolute?: number; relative?: number };
  /** For text answers: only numbers within `window` characters after one of these words count (e.g. ["a1c"]). */
  near?: string[];
  window?: number;
  /** JSON answers: the field names that may hold the number. */
  fields?: string[];
}

/** A number in the answer equal to the expected value (within tolerance, after unit conversion). */
export function matchNumber(answer: unknown, expected: NumberExpectation): Match<number> {
  const want = `${expected.value}${expected.unit ? ` ${expected.unit}` : ''}`;
  const candidates: NumberInText[] = [];
  const field = expected.fields ? answerField(answer, ...expected.fields) : undefined;
  if (typeof field === 'number') candidates.push({ value: field, index: 0 });
  else if (typeof field === 'string') candidates.push(...numbersIn(field));
  else if (field && typeof field === 'object') {
    const { value, unit } = field as { value?: unknown; unit?: unknown };
    if (typeof value === 'number') candidates.push({ value, ...(typeof unit === 'string' ? { unit } : {}), index: 0 });
  }
  if (candidates.length === 0) {
    const text = answerText(answer);
    let numbers = numbersIn(text);
    if (expected.near && expected.near.length > 0) {
      const lower = text.toLowerCase();
      const anchors = expected.near.flatMap((word) => [...lower.matchAll(new RegExp(escapeRegExp(word.toLowerCase()), 'g'))].map((m) => (m.index ?? 0) + word.length));
      numbers = numbers.filter((n) => anchors.some((a) => n.index >= a && n.index - a <= (expected.window ?? 40)));
    }
    candidates.push(...numbers);
  }
  if (candidates.length === 0) return matchOf<number>([`no number found in the answer (expected ${want})`], [`answer: ${clip(answerText(answer))}`]);
  const seen: string[] = [];
  for (const n of candidates) {
    const inExpectedUnit = n.unit && expected.unit && normalizeUnit(n.unit) !== '%' ? convert(n.value, n.unit, expected.unit) : n.value;
    seen.push(`${n.value}${n.unit ? ` ${n.unit}` : ''}`);
    if (inExpectedUnit !== undefined && withinTolerance(inExpectedUnit, expected.value, expected.tolerance)) {
      return matchOf<number>([], [`answer gives ${n.value}${n.unit ? ` ${n.unit}` : ''}, expected ${want}`], n.value);
    }
  }
  return matchOf<number>([`expected ${want}${toleranceText(expected.tolerance)}, the answer gives ${seen.join(', ')}`]);
}

function toleranceText(t: NumberExpectation['tolerance']): string {
  if (!t) return '';
  const parts = [t.absolute !== undefined ? `±${t.absolute}` : '', t.relative !== undefined ? `±${t.relative * 100}%` : ''].filter(Boolean);
  return parts.length ? ` (${parts.join(' or ')})` : '';
}

/** Every term (case-insensitive; a term may be a list of synonyms) appears in the text; reports each missing one. */
export function matchTerms(text: string, terms: (string | string[])[]): Match {
  const lower = text.toLowerCase();
  const missing = terms.filter((t) => !(Array.isArray(t) ? t : [t]).some((s) => lower.includes(s.toLowerCase())));
  return matchOf(missing.map((t) => `missing ${Array.isArray(t) ? t.map((s) => `"${s}"`).join(' or ') : `"${t}"`}`));
}

/**
 * A yes/no judgement: a JSON boolean field, or words in the text. Answers holding both a yes word and a no word
 * are ambiguous and fail.
 */
export function matchYesNo(answer: unknown, expected: boolean, options: { fields?: string[]; yes: string[]; no: string[] }): Match<boolean> {
  const field = options.fields ? answerField(answer, ...options.fields) : undefined;
  let said: boolean | undefined;
  if (typeof field === 'boolean') said = field;
  else {
    const text = (typeof field === 'string' ? field : answerText(answer)).toLowerCase();
    const no = options.no.some((w) => wordIn(text, w));
    // "not at goal" holds "at goal": yes-words are looked for only outside the no-phrases.
    const rest = options.no.reduce((t, w) => t.replaceAll(w.toLowerCase(), ' '), text);
    const yes = options.yes.some((w) => wordIn(rest, w));
    if (yes && no) return matchOf<boolean>([`the answer is ambiguous: it contains both "${options.yes.join('/')}" and "${options.no.join('/')}" wording`]);
    said = yes ? true : no ? false : undefined;
  }
  if (said === undefined) return matchOf<boolean>([`the answer gives no ${expected ? 'yes' : 'no'} judgement`], [`answer: ${clip(answerText(answer))}`]);
  return said === expected ? matchOf<boolean>([], [`answer says ${said}`], said) : matchOf<boolean>([`the answer says ${said}, expected ${expected}`]);
}

function wordIn(text: string, word: string): boolean {
  return new RegExp(`(^|[^a-z])${escapeRegExp(word.toLowerCase())}($|[^a-z])`).test(text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
