// How often a dose is given, as administrations per day: from Dosage.timing (repeat, or the HL7 v3 GTSAbbreviation
// timing code) or from the sig text and its abbreviations (BID, b.i.d., q12h, QHS, "every 12 hours", "weekly").
import type { Dosage, Timing } from '@medplum/fhirtypes';

/** Days per UCUM unit of time (Timing.repeat.periodUnit). */
const PER_DAY: Record<string, number> = { s: 86400, min: 1440, h: 24, d: 1, wk: 1 / 7, mo: 1 / 30, a: 1 / 365 };

/** HL7 v3 GTSAbbreviation timing codes and common sig abbreviations, as administrations per day. */
const TIMING_CODES: Record<string, number> = {
  QD: 1, DAILY: 1, QDAY: 1, QDAILY: 1, AM: 1, PM: 1, QAM: 1, QPM: 1, QHS: 1, HS: 1, BED: 1, NIGHTLY: 1, QNOON: 1,
  BID: 2, TID: 3, QID: 4, QOD: 0.5, WK: 1 / 7, QWK: 1 / 7, WEEKLY: 1 / 7, MO: 1 / 30, MONTHLY: 1 / 30,
};

/** Timing.repeat.when events per day: the meal codes without a meal named (AC, PC, C) mean every meal. */
const WHEN_PER_DAY: Record<string, number> = { AC: 3, PC: 3, C: 3 };

/** "Q12H" -> 2, "Q2D" -> 0.5, "Q2W" -> 1/14; undefined for anything else. */
function everyN(code: string): number | undefined {
  const m = /^Q(\d+(?:\.\d+)?)(H|HR|D|W|WK)$/i.exec(code);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!(n > 0)) return undefined;
  const unit = m[2].toUpperCase();
  return unit.startsWith('H') ? 24 / n : unit === 'D' ? 1 / n : 1 / (7 * n);
}

const WORD_NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, once: 1, twice: 2, thrice: 3 };
const num = (s: string): number => WORD_NUMBERS[s.toLowerCase()] ?? Number(s);

const N = String.raw`(\d+(?:\.\d+)?|one|two|three|four|five|six)`;
// "1-2", "2 to 3": a range counts its maximum (the most the patient may take is what safety checks need).
const RANGE = String.raw`${N}(?:\s*(?:-|to|or)\s*${N})?`;
const TIMES = String.raw`\s*(?:x|times?)\s*(?:a|an|per|each|every|\/)?\s*`;
const most = (m: RegExpExecArray): number => Math.max(num(m[1]), m[2] ? num(m[2]) : 0);

/**
 * Sig phrasings and their administrations per day; each is tried everywhere in the text and the one that starts
 * first wins (the longest on a tie), so "BID x 7 days, then daily" is 2/day and "twice daily" is not "daily".
 * A bare count before "daily" ("take 2 daily") is a number of tablets, not of administrations, so it needs "x"/"times".
 */
const PHRASES: [RegExp, (m: RegExpExecArray) => number][] = [
  [new RegExp(String.raw`\b${RANGE}${TIMES}(?:day|daily|d)\b`, 'i'), most],
  [new RegExp(String.raw`\b${RANGE}\s*\/\s*(?:day|d)\b`, 'i'), most],
  [new RegExp(String.raw`\b(once|twice|thrice)\s*(?:a|an|per|each|every)?\s*(?:day|daily)\b`, 'i'), (m) => num(m[1])],
  [new RegExp(String.raw`\b${RANGE}${TIMES}(?:week|weekly|wk)\b`, 'i'), (m) => most(m) / 7],
  [new RegExp(String.raw`\b(once|twice|thrice)\s*(?:a|an|per|each|every)?\s*(?:week|weekly)\b`, 'i'), (m) => num(m[1]) / 7],
  [new RegExp(String.raw`\b(once|twice)\s*(?:a|an|per|each|every)?\s*(?:month|monthly)\b`, 'i'), (m) => num(m[1]) / 30],
  [new RegExp(String.raw`\b(?:every|q)\s*${RANGE}\s*(?:hours?|hrs?|h)\b`, 'i'), (m) => 24 / Math.min(num(m[1]), m[2] ? num(m[2]) : Infinity)],
  [new RegExp(String.raw`\b(?:every|q)\s*${N}\s*(?:days?|d)\b`, 'i'), (m) => 1 / num(m[1])],
  [new RegExp(String.raw`\b(?:every|q)\s*${N}\s*(?:weeks?|wks?|w)\b`, 'i'), (m) => 1 / (7 * num(m[1]))],
  [/\bb\.?\s?i\.?\s?d\b\.?/i, () => 2],
  [/\bt\.?\s?i\.?\s?d\b\.?/i, () => 3],
  [/\bq\.?\s?i\.?\s?d\b\.?/i, () => 4],
  [/\bq\.?\s?o\.?\s?d\b\.?|\bevery other day\b|\balternate days\b/i, () => 0.5],
  [/\bevery other week\b|\bbiweekly\b/i, () => 1 / 14],
  [/\b(?:q\.?\s?w(?:ee)?k|weekly|every week|once a week)\b/i, () => 1 / 7],
  [/\b(?:monthly|every month|once a month)\b/i, () => 1 / 30],
  [/\b(?:q\.?\s?d(?:ay|aily)?\b\.?|daily|every day|each day|a day|per day|once a day|q\.?\s?(?:am|pm|hs|noon)\b|(?:every|each|in the) (?:morning|evening|night)|nightly|at (?:bed\s?time|night)|before bed|h\.?s\.?(?=\s|$))/i, () => 1],
];

/** Administrations per day named in a sig ("1 tab PO BID" -> 2), or undefined when it names none. */
export function frequencyFromText(text: string | undefined): number | undefined {
  if (!text) return undefined;
  let best: { at: number; length: number; perDay: number } | undefined;
  for (const [pattern, perDay] of PHRASES) {
    const m = pattern.exec(text);
    if (!m) continue;
    if (!best || m.index < best.at || (m.index === best.at && m[0].length > best.length)) best = { at: m.index, length: m[0].length, perDay: perDay(m) };
  }
  return best && Number.isFinite(best.perDay) && best.perDay > 0 ? best.perDay : undefined;
}

/** Administrations per day from a structured Timing (repeat, else code), or undefined when it says none. */
export function frequencyOfTiming(timing: Timing | undefined): number | undefined {
  const repeat = timing?.repeat;
  if (repeat) {
    const period = repeat.period ?? (repeat.periodUnit ? 1 : undefined);
    const perUnit = repeat.periodUnit ? PER_DAY[repeat.periodUnit] : undefined;
    const events = repeat.frequencyMax ?? repeat.frequency;
    // FHIR: a period without a frequency means once per period.
    if (period !== undefined && perUnit !== undefined && period > 0) return ((events ?? 1) / period) * perUnit;
    if (repeat.frequency === undefined) {
      const daily = (repeat.timeOfDay?.length ?? 0) || (repeat.when ?? []).reduce((n, w) => n + (WHEN_PER_DAY[w] ?? 1), 0);
      if (daily > 0) return repeat.dayOfWeek?.length ? (daily * repeat.dayOfWeek.length) / 7 : daily;
    }
  }
  for (const coding of timing?.code?.coding ?? []) {
    const code = coding.code?.toUpperCase();
    if (!code) continue;
    const n = TIMING_CODES[code] ?? everyN(code);
    if (n !== undefined) return n;
  }
  return undefined;
}

/**
 * Administrations per day of a dosage: timing.repeat, else timing.code, else the text (timing.code text and
 * display, Dosage.text, patientInstruction); undefined when unknown. A "1-2 times a day" range counts its maximum.
 */
export function timesPerDay(dosage: Dosage | undefined): number | undefined {
  const structured = frequencyOfTiming(dosage?.timing);
  if (structured !== undefined) return structured;
  const texts = [dosage?.timing?.code?.text, ...(dosage?.timing?.code?.coding ?? []).map((c) => c.display), dosage?.text, dosage?.patientInstruction];
  for (const text of texts) {
    const n = frequencyFromText(text ?? undefined);
    if (n !== undefined) return n;
  }
  return undefined;
}

/**
 * An as-needed (PRN) dosage: the asNeeded element, a PRN timing code, or the sig saying so ("as needed", "prn",
 * "on demand", "as required", a "reliever"/"rescue" inhaler). One reading for graders and the note verifier.
 */
export function isAsNeeded(dosage: Dosage | undefined): boolean {
  if (!dosage) return false;
  if (dosage.asNeededBoolean || dosage.asNeededCodeableConcept) return true;
  if (dosage.timing?.code?.coding?.some((c) => c.code?.toUpperCase() === 'PRN')) return true;
  return /\b(?:as needed|p\.?r\.?n\.?|on[- ]demand|as required|reliever|rescue)\b/i.test(dosage.text ?? '');
}
