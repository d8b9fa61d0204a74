// Answer matching on meaning, never on keyword presence. Numbers with tolerance and units: "191 mg/dL", "191",
// {"ldl": 191}, "LDL was 1.91 g/L." all equal 191 mg/dL, and a date or a reference range is never the value. Yes/no
// judgements from a structured field first, else from what the text asserts (negation read in scope). Whether a text
// recommends or declines a drug (`matchRecommendation`), and whether a structured field agrees with the prose beside
// it (`matchFieldAgreesWithProse`). Answers may be text or JSON (an object, or text holding JSON).
import type { Communication, DocumentReference } from '@medplum/fhirtypes';
import { noteTextOf } from '../documentation/note-text.ts';
import { convert, normalizeUnit, withinTolerance } from '../../resources/units/ucum.ts';
import { matchOf, type Match } from './match.ts';
import { fractionsIn, numbersIn, type NumberInText } from './text/numbers.ts';
import { dateMatches, datesIn, type DatePrecision, type TextDate } from './text/dates.ts';
import { readDirection, type Direction, type DirectionReading, type DirectionStatement } from './text/direction.ts';
import { NEGATOR } from './text/direction-cues.ts';

export { numbersIn, fractionsIn, spelledNumber, type NumberInText, type FractionInText, type NumbersOptions } from './text/numbers.ts';
export { datesIn, dateMatches, type TextDate } from './text/dates.ts';
export { directionAbout, readDirection, mentionsIn, type Direction, type DirectionReading, type DirectionStatement, type DirectionOptions } from './text/direction.ts';

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

const fieldKey = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A field of a JSON answer, found case- and separator-insensitively (`hba1c`, `HbA1c`, `hb_a1c`). */
export function answerField(answer: unknown, ...names: string[]): unknown {
  const object = answerObject(answer);
  if (!object) return undefined;
  const wanted = names.map(fieldKey);
  for (const [k, v] of Object.entries(object)) if (wanted.includes(fieldKey(k))) return v;
  return undefined;
}

/**
 * The prose of an answer: a text as it is; for JSON, its string values (nested too) one per line, without the
 * `except` fields, and any text written around the JSON. Keys are not prose ("atGoal" is no statement).
 */
export function answerProse(answer: unknown, except: string[] = []): string {
  const object = answerObject(answer);
  if (!object) return answerText(answer);
  const skip = new Set(except.map(fieldKey));
  const lines: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') lines.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (!skip.has(fieldKey(k))) walk(x);
  };
  walk(object);
  if (typeof answer === 'string') {
    const around = [answer.slice(0, answer.indexOf('{')), answer.slice(answer.lastIndexOf('}') + 1)].map((x) => x.trim()).filter(Boolean);
    lines.unshift(...around);
  }
  return lines.join('\n');
}

// ---- numbers ------------------------------------------------------------------------------------------------------

export interface NumberExpectation {
  value: number;
  unit?: string;
  tolerance?: { absolute?: number; relative?: number };
  /** For text answers: only numbers that belong to one of these words count: written after it within `window`
   * characters ("K 5.9"), or a count right before it ("2 criteria", "12 years ago"). Matched as words ("k" is not
   * the k of "kidney"); longer words may end a longer one ("a1c" in "HbA1c"). */
  near?: string[];
  window?: number;
  /** JSON answers: the field names that may hold the number. */
  fields?: string[];
}

/** Words that may stand between a label and its value without being a label themselves ("A1c was 8.4"). */
const CONNECTORS = new Set([
  'is', 'was', 'were', 'are', 'of', 'at', 'now', 'currently', 'today', 'latest', 'recent', 'most', 'last', 'value', 'level', 'levels', 'result',
  'reading', 'measured', 'about', 'approximately', 'around', 'roughly', 'to', 'from', 'and', 'or', 'then', 'up', 'down', 'rose', 'fell',
  'increased', 'decreased', 'dropped', 'improved', 'worsened', 'than', 'with', 'a', 'an', 'the', 'score', 'total', 'count', 'equals', 'equal',
  'gives', 'met', 'be', 'been', 'has', 'had', 'on', 'in', 'for', 'since', 'by', 'mean', 'average', 'yes', 'no', 'it', 'its', 'this', 'that',
]);
/** Analytes written in lower case that label the number after them ("creatinine 1.9"). */
const LAB_WORDS = new Set([
  'potassium', 'sodium', 'creatinine', 'hemoglobin', 'haemoglobin', 'glucose', 'albumin', 'bicarbonate', 'urate', 'calcium', 'phosphate',
  'platelets', 'ldl', 'hdl', 'cholesterol', 'triglycerides', 'egfr', 'gfr', 'uacr', 'acr', 'bun', 'a1c', 'hba1c', 'tsh', 'inr', 'psa', 'bmi',
  'weight', 'age', 'bp', 'pulse', 'ferritin', 'magnesium', 'phq', 'phq9', 'score', 'dose',
]);

const anchorPattern = (word: string) => {
  const w = word.toLowerCase();
  const core = escapeRegExp(w.trim());
  // Short words must stand alone ("k", "su"); longer ones may end a longer word ("a1c" in "hba1c").
  const startBoundary = w.trim().length <= 2 ? '(?<![\\p{L}\\d])' : '';
  return new RegExp(`${startBoundary}${core}(?:e?s)?${/\s$/.test(w) ? '\\s' : '(?![\\p{L}])'}`, 'giu');
};

/** The word a number is written right after, if it labels something else than the anchor ("K" in "eGFR 42, K 5.9"). */
function foreignLabel(text: string, index: number, anchors: string[]): string | undefined {
  const m = /([\p{L}][\p{L}\d+]*)[\s:=(~≈]*$/u.exec(text.slice(Math.max(0, index - 30), index));
  if (!m) return undefined;
  const word = m[1];
  const lower = word.toLowerCase();
  if (CONNECTORS.has(lower) || anchors.some((a) => lower.endsWith(a.trim().toLowerCase()) || lower.replace(/s$/, '') === a.trim().toLowerCase())) return undefined;
  const abbreviation = /^[\p{L}][\p{L}\d+]{0,5}$/u.test(word) && ((word.match(/\p{Lu}/gu)?.length ?? 0) >= 2 || /\d/.test(word) || /^\p{Lu}[\p{Ll}]?$/u.test(word));
  return abbreviation || LAB_WORDS.has(lower) ? word : undefined;
}

/** The numbers of a text that belong to one of the `near` words. */
function numbersNear(text: string, numbers: NumberInText[], near: string[], window: number): NumberInText[] {
  const out = new Set<NumberInText>();
  const fractions = fractionsIn(text);
  for (const word of near) {
    for (const a of text.matchAll(anchorPattern(word))) {
      const start = a.index!;
      const end = start + a[0].length;
      for (const n of numbers) {
        if (n.index >= end && n.index - end <= window && !foreignLabel(text, n.index, near) && !n.role) out.add(n);
      }
      // A count before its noun: "2 criteria", "12 years ago", "5 of 12 cores" (the 5) - unless the word labels a
      // number after it ("eGFR 42 K 5.9": the 42 is not K's).
      if (/^\s*[:=]?\s*[-+]?\d/.test(text.slice(end))) continue;
      const before = numbers.filter((n) => (n.end ?? n.index) <= start).at(-1);
      if (!before) continue;
      const between = text.slice(before.end ?? before.index, start);
      if (/[.,;:()]/.test(between) || between.trim().split(/\s+/).filter(Boolean).length > 2) continue;
      if (before.role === 'denominator') {
        const f = fractions.find((x) => x.end === before.end);
        const numerator = f && numbers.find((n) => n.index === f.index);
        if (numerator) out.add(numerator);
      } else if (!before.role) out.add(before);
    }
  }
  return [...out].sort((a, b) => a.index - b.index);
}

/** A number in the answer equal to the expected value (within tolerance, after unit conversion). */
export function matchNumber(answer: unknown, expected: NumberExpectation): Match<number> {
  const want = `${expected.value}${expected.unit ? ` ${expected.unit}` : ''}`;
  // Counts may be spelled ("five of twelve"); measurements are written in digits.
  const words = Number.isInteger(expected.value) && !expected.unit;
  const candidates: NumberInText[] = [];
  const field = expected.fields ? answerField(answer, ...expected.fields) : undefined;
  if (typeof field === 'number') candidates.push({ value: field, index: 0 });
  else if (typeof field === 'string') candidates.push(...numbersIn(field, { words }).filter((n) => !n.role));
  else if (field && typeof field === 'object') {
    const { value, unit } = field as { value?: unknown; unit?: unknown };
    if (typeof value === 'number') candidates.push({ value, ...(typeof unit === 'string' ? { unit } : {}), index: 0 });
  }
  if (candidates.length === 0) {
    const text = answerText(answer);
    const numbers = numbersIn(text, { words });
    // The near words pick the value out of a sentence; an answer that is only the value ("5.9 mmol/L.") has none.
    const anchored = expected.near?.length && expected.near.some((w) => anchorPattern(w).test(text));
    candidates.push(...(anchored ? numbersNear(text, numbers, expected.near!, expected.window ?? 40) : numbers.filter((n) => !n.role)));
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

/** A part of a whole: "5/12 cores", "5 of 12", "five of twelve", or a JSON field holding one of those. */
export function matchFraction(answer: unknown, expected: { numerator: number; denominator: number; fields?: string[]; near?: string[]; window?: number }): Match<string> {
  const want = `${expected.numerator} of ${expected.denominator}`;
  const field = expected.fields ? answerField(answer, ...expected.fields) : undefined;
  const text = typeof field === 'string' ? field : answerText(answer);
  let fractions = fractionsIn(text);
  if (expected.near?.length && typeof field !== 'string') {
    const anchors = expected.near.flatMap((w) => [...text.matchAll(anchorPattern(w))].map((m) => ({ start: m.index!, end: m.index! + m[0].length })));
    const window = expected.window ?? 40;
    fractions = fractions.filter((f) => anchors.some((a) => (f.index >= a.end && f.index - a.end <= window) || (a.start >= f.end && a.start - f.end <= 12)));
  }
  if (!fractions.length) return matchOf<string>([`no "n of m" count found (expected ${want})`], [`answer: ${clip(text)}`]);
  const hit = fractions.find((f) => f.numerator === expected.numerator && f.denominator === expected.denominator);
  return hit ? matchOf<string>([], [`answer gives "${hit.text}", expected ${want}`], hit.text)
    : matchOf<string>([`expected ${want}, the answer gives ${fractions.map((f) => `"${f.text}"`).join(', ')}`]);
}

// ---- dates --------------------------------------------------------------------------------------------------------

/**
 * A date in the answer naming the expected day (`YYYY-MM-DD` or a FHIR dateTime): ISO, "04/20/2023", "4/20/23",
 * "April 20, 2023", "20 Apr 2023". A month ("Apr 2023") counts only when `precision` is 'month' or 'year'.
 */
export function matchDate(answer: unknown, expected: string, options: { fields?: string[]; near?: string[]; window?: number; precision?: DatePrecision } = {}): Match<string> {
  const want = expected.slice(0, 10);
  const field = options.fields ? answerField(answer, ...options.fields) : undefined;
  const text = typeof field === 'string' ? field : answerText(answer);
  let dates: TextDate[] = datesIn(text);
  if (options.near?.length && typeof field !== 'string') {
    const anchors = options.near.flatMap((w) => [...text.matchAll(anchorPattern(w))].map((m) => m.index! + m[0].length));
    dates = dates.filter((d) => anchors.some((a) => d.start >= a && d.start - a <= (options.window ?? 40)));
  }
  if (!dates.length) return matchOf<string>([`no date found in the answer (expected ${want})`], [`answer: ${clip(text)}`]);
  const hit = dates.find((d) => dateMatches(d, expected, options.precision ?? 'day'));
  return hit ? matchOf<string>([], [`answer gives "${hit.text}" (${hit.value}), expected ${want}`], hit.value)
    : matchOf<string>([`expected ${want}, the answer gives ${dates.map((d) => `"${d.text}"`).join(', ')}`]);
}

// ---- terms --------------------------------------------------------------------------------------------------------

/** Every term (case-insensitive; a term may be a list of synonyms) appears in the text; reports each missing one. */
export function matchTerms(text: string, terms: (string | string[])[]): Match {
  const lower = text.toLowerCase();
  const missing = terms.filter((t) => !(Array.isArray(t) ? t : [t]).some((s) => lower.includes(s.toLowerCase())));
  return matchOf(missing.map((t) => `missing ${Array.isArray(t) ? t.map((s) => `"${s}"`).join(' or ') : `"${t}"`}`));
}

// ---- yes/no and recommendations ------------------------------------------------------------------------------------

export interface YesNoOptions {
  /** JSON answers: the boolean field(s) holding the judgement. */
  fields?: string[];
  /** Phrases that say yes / no ("at goal" / "not at goal"). Read in context: "not well controlled" is a no even
   * though it holds "controlled"; "not contraindicated" is a yes. */
  yes: string[];
  no: string[];
  /** When the question is whether to do something with a drug or action (subject = its names, e.g. ['ibuprofen',
   * 'NSAID']): the text's direction about it is read too ("I would not prescribe ibuprofen" is a no), and a
   * structured field must agree with the prose beside it. */
  subject?: string[];
  /** Mentions that are not the subject ("topical NSAID"). */
  except?: string[];
  /** What `true` means for the subject: 'recommend' (default: "should I prescribe it?") or 'against'. */
  yesMeans?: 'recommend' | 'against';
}

interface Vote {
  said: boolean;
  why: string;
}

const YES_NO_STRINGS: Record<string, boolean> = { yes: true, y: true, true: true, no: false, n: false, false: false };

/**
 * A yes/no judgement: a JSON boolean (or "yes"/"no") field first; otherwise what the text asserts - a leading yes
 * or no, the yes/no phrases read with their negation, and (with `subject`) the text's direction about the drug.
 * A text that asserts both fails as ambiguous; so does a field the answer's own prose contradicts about `subject`.
 */
export function matchYesNo(answer: unknown, expected: boolean, options: YesNoOptions): Match<boolean> {
  const field = options.fields ? answerField(answer, ...options.fields) : undefined;
  const structured = typeof field === 'boolean' ? field : typeof field === 'string' ? YES_NO_STRINGS[field.trim().toLowerCase()] : undefined;
  let said: boolean | undefined;
  const evidence: string[] = [];
  if (structured !== undefined) {
    said = structured;
    evidence.push(`field says ${said}`);
    const prose = answerProse(answer, options.fields);
    const contradiction = proseContradicts(prose, said, options);
    if (contradiction) return matchOf<boolean>([`the answer's field says ${said} but its text says ${!said}: ${contradiction}`], [`answer: ${clip(answerText(answer))}`]);
  } else {
    const text = typeof field === 'string' ? field : answerProse(answer);
    const votes = textVotes(text, options);
    const yes = votes.filter((v) => v.said);
    const no = votes.filter((v) => !v.said);
    if (yes.length && no.length) {
      return matchOf<boolean>([`the answer is ambiguous: it says yes (${yes.map((v) => v.why).join('; ')}) and no (${no.map((v) => v.why).join('; ')})`]);
    }
    said = yes.length ? true : no.length ? false : undefined;
    evidence.push(...votes.map((v) => `${v.said ? 'yes' : 'no'}: ${v.why}`));
  }
  if (said === undefined) return matchOf<boolean>([`the answer gives no ${expected ? 'yes' : 'no'} judgement`], [`answer: ${clip(answerText(answer))}`]);
  return said === expected ? matchOf<boolean>([], [`answer says ${said}`, ...evidence], said) : matchOf<boolean>([`the answer says ${said}, expected ${expected}`, ...evidence]);
}

/** The yes/no votes of a text: a leading "yes"/"no", the phrases in context, and the direction about `subject`. */
function textVotes(text: string, options: YesNoOptions): Vote[] {
  const votes: Vote[] = [];
  const opening = /^\s*(yes|no)\s*(?:[.,!:;–—-]|$)/i.exec(text);
  if (opening) votes.push({ said: opening[1].toLowerCase() === 'yes', why: `answers "${opening[1]}"` });
  votes.push(...phraseVotes(text, options.yes, options.no));
  if (options.subject?.length) {
    const reading = readDirection(text, options.subject, { except: options.except, answersQuestion: true });
    const yesIs = options.yesMeans ?? 'recommend';
    // A leading yes/no answers the question as asked (voted above); the reader takes it as "should I do it?".
    const weighed = weighedStatements(reading).filter((s) => !s.why.startsWith('answers'));
    for (const s of weighed) votes.push({ said: s.direction === yesIs, why: `"${clip(s.text, 80)}" (${s.why})` });
  }
  return votes;
}

/** The statements that decide a reading: the strong ones when there are any. */
function weighedStatements(reading: DirectionReading): DirectionStatement[] {
  const strong = reading.statements.filter((s) => s.strong);
  return strong.length ? strong : reading.statements;
}

/**
 * Each occurrence of a yes or no phrase, read with the negation before it in its clause ("I don't think it is at
 * goal", "not well controlled", "not contraindicated"). A yes phrase inside a no phrase ("at goal" in "not at goal")
 * is the no phrase.
 */
function phraseVotes(text: string, yes: string[], no: string[]): Vote[] {
  const lower = text.toLowerCase();
  const votes: Vote[] = [];
  const taken: [number, number][] = [];
  const occurrences = (phrase: string) => [...lower.matchAll(new RegExp(`(?<![a-z])${escapeRegExp(phrase.toLowerCase())}(?![a-z])`, 'g'))];
  const negatedBefore = (at: number) => {
    const clause = lower.slice(Math.max(0, at - 60), at).split(/[.;:,!?()–—]|\s-\s/).pop() ?? '';
    const words = clause.split(/\s+/).filter(Boolean).slice(-4).join(' ');
    return new RegExp(NEGATOR.source, 'iu').test(words);
  };
  const startsNegated = (phrase: string) => new RegExp(`^(?:${NEGATOR.source})`, 'iu').test(phrase.toLowerCase()) || /^(?:do not|don't|dont)\b/i.test(phrase);
  for (const phrase of [...no].sort((a, b) => b.length - a.length)) {
    for (const m of occurrences(phrase)) {
      const span: [number, number] = [m.index!, m.index! + m[0].length];
      if (taken.some(([a, b]) => span[0] < b && span[1] > a)) continue;
      taken.push(span);
      const flipped = !startsNegated(phrase) && negatedBefore(span[0]);
      votes.push({ said: flipped, why: `"${flipped ? `not ... ${phrase}` : phrase}"` });
    }
  }
  for (const phrase of [...yes].sort((a, b) => b.length - a.length)) {
    for (const m of occurrences(phrase)) {
      const span: [number, number] = [m.index!, m.index! + m[0].length];
      if (taken.some(([a, b]) => span[0] < b && span[1] > a)) continue;
      taken.push(span);
      const flipped = negatedBefore(span[0]);
      votes.push({ said: !flipped, why: `"${flipped ? `not ... ${phrase}` : phrase}"` });
    }
  }
  return votes;
}

/** Why the prose beside a structured yes/no contradicts it about the subject, or undefined when it does not. */
function proseContradicts(prose: string, said: boolean, options: YesNoOptions): string | undefined {
  if (!prose.trim()) return undefined;
  if (options.subject?.length) {
    const reading = readDirection(prose, options.subject, { except: options.except });
    const yesIs = options.yesMeans ?? 'recommend';
    const against = weighedStatements(reading).filter((s) => (s.direction === yesIs) !== said);
    if (against.length) return against.map((s) => `"${clip(s.text, 80)}" (${s.why})`).join('; ');
  }
  // The yes/no phrases are not read against a field: they are short words that prose uses about other things too
  // ({"due": false, "comment": "next DXA due in 2026"}). Only the direction about a named subject is.
  return undefined;
}

export interface RecommendationExpectation {
  /** The drug or action's names (e.g. ['ibuprofen', 'NSAID']). */
  subject: string[];
  expected: 'recommend' | 'against';
  /** Mentions that are not the subject (e.g. 'topical NSAID'). */
  except?: string[];
  /** The text answers a question about the subject: clauses naming nothing ("No - not safe here") are about it. */
  answersQuestion?: boolean;
}

/**
 * Does the answer or note recommend (order, continue) or decline (avoid, hold, stop) the subject, as expected? Read
 * on meaning: "I would not prescribe ibuprofen" declines it; "not ordered by me - ibuprofen is reasonable, go ahead"
 * recommends it; a text that asserts both, or names the subject without saying which, fails.
 */
export function matchRecommendation(answerOrNote: unknown, expectation: RecommendationExpectation): Match<Direction> {
  const text = textOf(answerOrNote);
  const reading = readDirection(text, expectation.subject, { except: expectation.except, answersQuestion: expectation.answersQuestion });
  const name = expectation.subject[0];
  const evidence = reading.statements.map((s) => `${s.direction}${s.strong ? '' : ' (weak)'}: "${clip(s.text, 100)}" (${s.why})`);
  const verb = (d: 'recommend' | 'against') => (d === 'recommend' ? `recommends ${name}` : `recommends against ${name}`);
  if (reading.direction === expectation.expected) return matchOf<Direction>([], [`the text ${verb(expectation.expected)}`, ...evidence], reading.direction);
  const why = reading.direction === 'absent' ? `the text never names ${expectation.subject.join('/')}`
    : reading.direction === 'unclear' ? (weighedStatements(reading).length ? `the text says both for and against ${name}` : `the text names ${name} without recommending for or against it`)
      : `the text ${verb(reading.direction)}, expected it to ${expectation.expected === 'recommend' ? `recommend ${name}` : `recommend against ${name}`}`;
  return matchOf<Direction>([why, ...evidence], [], reading.direction);
}

/**
 * A structured judgement and the prose beside it agree: `{startTestosterone: false}` next to "start testosterone
 * cypionate" fails. The prose is the answer's other fields and any notes passed in `texts`; a prose that does not
 * take a direction passes. A missing field passes too (there is nothing to contradict; judge presence elsewhere).
 */
export function matchFieldAgreesWithProse(
  answer: unknown,
  expectation: { fields: string[]; subject: string[]; except?: string[]; trueMeans?: 'recommend' | 'against'; texts?: (string | DocumentReference | Communication)[] },
): Match<boolean> {
  const field = answerField(answer, ...expectation.fields);
  const value = typeof field === 'boolean' ? field : typeof field === 'string' ? YES_NO_STRINGS[field.trim().toLowerCase()] : undefined;
  if (value === undefined) return matchOf<boolean>([], [`no ${expectation.fields[0]} field to compare`]);
  const fieldSays = (value ? expectation.trueMeans ?? 'recommend' : (expectation.trueMeans ?? 'recommend') === 'recommend' ? 'against' : 'recommend');
  const prose = [answerProse(answer, expectation.fields), ...(expectation.texts ?? []).map(textOf)];
  const mismatches: string[] = [];
  prose.forEach((text, i) => {
    const reading = readDirection(text, expectation.subject, { except: expectation.except });
    const opposite = weighedStatements(reading).filter((s) => s.direction !== fieldSays);
    const where = i === 0 ? 'the answer text' : `text ${i}`;
    for (const s of opposite) mismatches.push(`${expectation.fields[0]}: ${value} (${fieldSays} ${expectation.subject[0]}) but ${where} says "${clip(s.text, 100)}" (${s.why})`);
  });
  return matchOf<boolean>(mismatches, [`${expectation.fields[0]}: ${value}`], value);
}

/** Text of an answer (prose of JSON), a DocumentReference or a Communication. */
function textOf(x: unknown): string {
  if (x && typeof x === 'object' && 'resourceType' in x && ((x as { resourceType: string }).resourceType === 'DocumentReference' || (x as { resourceType: string }).resourceType === 'Communication')) {
    return noteTextOf(x as DocumentReference | Communication);
  }
  return answerProse(x);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
