// Medication orders (MedicationRequest): drug by RxNorm code or ingredient, dose within tolerance after unit
// conversion, route, frequency from timing (repeat or code) or text, intent and status.
import type { Dosage, MedicationRequest } from '@medplum/fhirtypes';
import { describeConcept, isMedication, RXNORM } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { checkOneOf, checkPatient, label } from './resources.ts';
import { convert, withinTolerance } from './units.ts';

export interface MedicationExpectation {
  patient?: string;
  /** RxNorm codes accepted as they are (e.g. the SCD for the exact product). */
  codes?: string[];
  /** RxNorm ingredient RXCUIs: any product containing one matches. */
  ingredients?: string[];
  /** Dose per administration. */
  dose?: { value: number; unit: string; tolerance?: { absolute?: number; relative?: number } };
  /** Accepted routes, as SNOMED codes or words (e.g. ['26643006', 'oral', 'po']). */
  route?: string[];
  /** Administrations per day (e.g. 2 for BID), within ±0.01. */
  timesPerDay?: number;
  intent?: string[];
  status?: string[];
}

const UNITS_OF_TIME_PER_DAY: Record<string, number> = { s: 86400, min: 1440, h: 24, d: 1, wk: 1 / 7, mo: 1 / 30, a: 1 / 365 };

/** HL7 v3 GTSAbbreviation timing codes and common sig abbreviations, as administrations per day. */
const TIMING_CODES: Record<string, number> = {
  QD: 1, DAILY: 1, QAM: 1, QPM: 1, QHS: 1, HS: 1, BID: 2, TID: 3, QID: 4, Q4H: 6, Q6H: 4, Q8H: 3, Q12H: 2, Q24H: 1, QOD: 0.5, WK: 1 / 7,
};

// Most specific first: "twice daily" also contains "daily".
const FREQUENCY_WORDS: [RegExp, number][] = [
  [/\b(twice|two times|2 times|2x)\s*(a|per|each)?\s*day\b|\btwice daily\b|\bb\.?i\.?d\.?\b|\bq12h\b|\bevery 12 hours\b/i, 2],
  [/\b(three times|3 times|3x)\s*(a|per|each)?\s*day\b|\bt\.?i\.?d\.?\b|\bq8h\b|\bevery 8 hours\b/i, 3],
  [/\b(four times|4 times|4x)\s*(a|per|each)?\s*day\b|\bq\.?i\.?d\.?\b|\bq6h\b|\bevery 6 hours\b/i, 4],
  [/\bweekly\b|\bonce (a|per) week\b/i, 1 / 7],
  [/\bevery other day\b|\bq\.?o\.?d\.?\b/i, 0.5],
  [/\b(once|one time|1 time|1x)\s*(a|per|each)?\s*day\b|\bonce daily\b|\bdaily\b|\bevery day\b|\bq\.?d\.?\b|\bq24h\b|\bnightly\b|\bat bedtime\b|\bevery (morning|evening)\b/i, 1],
];

/** Administrations per day of a dosage: timing.repeat, else timing.code, else the text; undefined when unknown. */
export function timesPerDay(dosage: Dosage | undefined): number | undefined {
  const repeat = dosage?.timing?.repeat;
  if (repeat?.frequency !== undefined && repeat.period !== undefined && repeat.periodUnit) {
    const perUnit = UNITS_OF_TIME_PER_DAY[repeat.periodUnit];
    if (perUnit !== undefined && repeat.period > 0) return (repeat.frequency / repeat.period) * perUnit * ((repeat.frequencyMax ?? repeat.frequency) / repeat.frequency);
  }
  if (repeat?.timeOfDay && repeat.timeOfDay.length > 0 && repeat.frequency === undefined) return repeat.timeOfDay.length;
  for (const coding of dosage?.timing?.code?.coding ?? []) {
    const n = coding.code ? TIMING_CODES[coding.code.toUpperCase()] : undefined;
    if (n !== undefined) return n;
  }
  const text = [dosage?.timing?.code?.text, dosage?.text, dosage?.patientInstruction].filter(Boolean).join(' ');
  for (const [pattern, n] of FREQUENCY_WORDS) if (pattern.test(text)) return n;
  return undefined;
}

/** The first dose quantity of a dosage (doseAndRate.doseQuantity), or one written in the text ("10 mg"). */
export function doseOf(dosage: Dosage | undefined): { value: number; unit: string } | undefined {
  for (const dr of dosage?.doseAndRate ?? []) {
    const q = dr.doseQuantity;
    if (q?.value !== undefined) return { value: q.value, unit: q.unit ?? q.code ?? '' };
  }
  const m = /(\d+(?:\.\d+)?)\s*(mg|g|mcg|ug|µg|units?|ml)\b/i.exec(dosage?.text ?? '');
  return m ? { value: Number(m[1]), unit: m[2] } : undefined;
}

function routeWords(dosage: Dosage | undefined): string[] {
  const route = dosage?.route;
  const words = [...(route?.coding ?? []).flatMap((c) => [c.code, c.display]), route?.text];
  const text = dosage?.text ?? '';
  if (/\b(by mouth|orally|p\.?o\.?)\b/i.test(text)) words.push('oral');
  return words.filter((w): w is string => !!w).map((w) => w.toLowerCase());
}

const ROUTE_SYNONYMS: Record<string, string[]> = {
  oral: ['oral', 'po', 'by mouth', '26643006', 'oral route'],
  po: ['oral', 'po', 'by mouth', '26643006', 'oral route'],
  '26643006': ['oral', 'po', 'by mouth', '26643006', 'oral route'],
};

export function matchMedicationOrder(order: MedicationRequest, expected: MedicationExpectation): Match<MedicationRequest> {
  const mismatches: string[] = [];
  if (order.resourceType !== 'MedicationRequest') return matchOf([`is a ${order.resourceType}, not a MedicationRequest`]);
  checkPatient(order, expected.patient, mismatches);
  if ((expected.codes || expected.ingredients) && !isMedication(order.medicationCodeableConcept, expected)) {
    const wanted = [...(expected.codes ?? []).map((c) => `rxnorm|${c}`), ...(expected.ingredients ?? []).map((c) => `ingredient rxnorm|${c}`)].join(' or ');
    mismatches.push(`drug is ${order.medicationReference ? `a reference (${order.medicationReference.reference}), not an RxNorm code` : describeConcept(order.medicationCodeableConcept)}, expected ${wanted}`);
  }
  checkOneOf('status', order.status, expected.status, mismatches);
  checkOneOf('intent', order.intent, expected.intent, mismatches);
  const dosage = order.dosageInstruction?.[0];
  if (expected.dose) {
    const dose = doseOf(dosage);
    const inUnit = dose ? convert(dose.value, dose.unit, expected.dose.unit) : undefined;
    const want = `${expected.dose.value} ${expected.dose.unit}`;
    if (!dose) mismatches.push(`no dose given, expected ${want}`);
    else if (inUnit === undefined) mismatches.push(`dose unit ${dose.unit || '(none)'} cannot be compared with ${expected.dose.unit}`);
    else if (!withinTolerance(inUnit, expected.dose.value, expected.dose.tolerance ?? { relative: 0.1 })) mismatches.push(`dose is ${dose.value} ${dose.unit}, expected ${want}`);
  }
  if (expected.route) {
    const words = routeWords(dosage);
    const accepted = expected.route.flatMap((r) => ROUTE_SYNONYMS[r.toLowerCase()] ?? [r.toLowerCase()]);
    if (!words.some((w) => accepted.includes(w))) mismatches.push(`route is ${words.length ? words.join('/') : '(missing)'}, expected ${expected.route.join(' or ')}`);
  }
  if (expected.timesPerDay !== undefined) {
    const n = timesPerDay(dosage);
    if (n === undefined) mismatches.push(`frequency not given (no timing and no recognisable text), expected ${expected.timesPerDay}/day`);
    else if (Math.abs(n - expected.timesPerDay) > 0.01) mismatches.push(`frequency is ${round(n)}/day, expected ${expected.timesPerDay}/day`);
  }
  return matchOf(mismatches, [`${label(order)}: ${describeConcept(order.medicationCodeableConcept)}, status ${order.status}`], order);
}

/** The best of several orders for the expectation (e.g. every MedicationRequest the session created). */
export function findMedicationOrder(orders: MedicationRequest[], expected: MedicationExpectation): Match<MedicationRequest> {
  return bestOf(orders, (o) => matchMedicationOrder(o, expected), label, `no MedicationRequest was written (expected ${[...(expected.codes ?? []), ...(expected.ingredients ?? [])].map((c) => `${RXNORM}|${c}`).join(' or ')})`);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
