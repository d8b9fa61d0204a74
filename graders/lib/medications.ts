// Medication orders (MedicationRequest): drug by RxNorm code or ingredient, dose within tolerance after unit
// conversion (a count of tablets times the product's strength counts as the amount it is), route (Dosage.route, the
// sig, or the dose form), frequency from timing (repeat or code) or text, intent and status. The readers live in
// ./dose/ (strength, sig text, frequency, route); this file combines them for an order.
import type { CodeableConcept, Dosage, Medication, MedicationRequest } from '@medplum/fhirtypes';
import { ingredientsOf } from '../../seed/codes/index.ts';
import { describeConcept, isMedication, RXNORM } from './codings.ts';
import { readDose, type DoseOptions, type DoseReading } from './dose/amount.ts';
import { isAsNeeded, timesPerDay } from './dose/frequency.ts';
import { expectedRoutes, routeOf, type RouteReading } from './dose/route.ts';
import { medicationNames, type MedicationSource } from './dose/strength.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { checkOneOf, checkPatient, label } from './resources.ts';
import { convert, withinTolerance } from '../../resources/units/ucum.ts';

export { timesPerDay, frequencyFromText, frequencyOfTiming, isAsNeeded } from './dose/frequency.ts';
export { readDose, doseIn, strengthIn, type DoseOptions, type DoseReading } from './dose/amount.ts';
export { doseInText } from './dose/sig.ts';
export { strengthFor, strengthsOf, strengthsInName, type IngredientStrength, type MedicationSource } from './dose/strength.ts';
export { routeOf, routeInText, routeOfWord, routesOfDoseForm, type Route, type RouteReading } from './dose/route.ts';

type Tolerance = { absolute?: number; relative?: number };

export interface MedicationExpectation {
  patient?: string;
  /** RxNorm codes accepted as they are (e.g. the SCD for the exact product). */
  codes?: string[];
  /** RxNorm ingredient RXCUIs: any product containing one matches. */
  ingredients?: string[];
  /** Dose per administration (of the expected ingredient, for a combination product). */
  dose?: { value: number; unit: string; tolerance?: Tolerance };
  /** Total per day (dose x administrations per day, summed over concurrent dosages): 500 mg BID == 1000 mg daily. */
  dailyDose?: { value: number; unit: string; tolerance?: Tolerance };
  /** The most per day that is acceptable (e.g. a renal dose cap); an order whose daily dose is unknown fails. */
  maxDailyDose?: { value: number; unit: string };
  /** Accepted routes, as SNOMED codes or words (e.g. ['26643006', 'oral', 'po']). */
  route?: string[];
  /** Administrations per day (e.g. 2 for BID), within ±0.01. */
  timesPerDay?: number;
  intent?: string[];
  status?: string[];
}

/** The drug of an order: its medicationCodeableConcept, or the code of a contained Medication it references. */
export function medicationOf(order: MedicationRequest): { concept?: CodeableConcept; medication?: Medication } {
  if (order.medicationCodeableConcept) return { concept: order.medicationCodeableConcept };
  const ref = order.medicationReference?.reference;
  const contained = ref?.startsWith('#') ? order.contained?.find((r): r is Medication => r.resourceType === 'Medication' && r.id === ref.slice(1)) : undefined;
  return contained ? { concept: contained.code, medication: contained } : {};
}

/** The product an order's strength is read from: its contained Medication, else its drug concept. */
export function orderProduct(order: MedicationRequest): MedicationSource {
  const { concept, medication } = medicationOf(order);
  return medication ?? concept;
}

/**
 * The dosages given together: FHIR dosages with the same `sequence` (or none) are concurrent ("1000 mg in the morning"
 * and "500 mg at night"); later sequences are later steps of a taper or titration.
 */
export function concurrentDosages(order: MedicationRequest): Dosage[] {
  const all = order.dosageInstruction ?? [];
  if (all.length <= 1) return all;
  const first = Math.min(...all.map((d) => d.sequence ?? 0));
  return all.filter((d) => (d.sequence ?? 0) === first);
}

/** The first dose quantity of a dosage: an amount (mg, mcg...), or a count of dose units times the product's strength
 * when `medication` says it ("1 {tbl}" of lisinopril 10 MG Oral Tablet is 10 mg), or the dose the text states. */
export function doseOf(dosage: Dosage | undefined, medication?: MedicationSource, options: DoseOptions = {}): { value: number; unit: string } | undefined {
  const d = readDose(dosage, medication, options);
  return d ? { value: d.value, unit: d.unit } : undefined;
}

/** The dose per administration of an order (first concurrent dosage), read against its own product. */
export function orderDose(order: MedicationRequest, options: DoseOptions = {}): DoseReading | undefined {
  return readDose(concurrentDosages(order)[0], orderProduct(order), options);
}

/** The dose per administration of an order in `unit` (e.g. 'mg'; "1 tablet" of a 5 mg product is 5), if known. */
export function orderDoseIn(order: MedicationRequest, unit: string, options: DoseOptions = {}): number | undefined {
  const d = orderDose(order, options);
  return d ? convert(d.value, d.unit, unit) : undefined;
}

/**
 * Total per day in `unit` (e.g. 'mg'): dose x administrations per day, summed over concurrent dosages. Undefined
 * when any part is unknown (no frequency, a count of tablets of unknown strength, a volume without concentration).
 */
export function dailyDose(order: MedicationRequest, unit: string, options: DoseOptions = {}): number | undefined {
  const dosages = concurrentDosages(order);
  if (dosages.length === 0) return undefined;
  let total = 0;
  for (const d of dosages) {
    const dose = readDose(d, orderProduct(order), options);
    const amount = dose ? convert(dose.value, dose.unit, unit) : undefined;
    const n = timesPerDay(d);
    if (amount === undefined || n === undefined) return undefined;
    total += amount * n;
  }
  return Number(total.toPrecision(12));
}

/** The route of an order's first dosage, falling back on its dose form ("Oral Tablet"). */
export function orderRoute(order: MedicationRequest): RouteReading {
  return routeOf(concurrentDosages(order)[0], medicationNames(orderProduct(order)));
}

function describeDose(d: DoseReading): string {
  const shown = `${round(d.value)} ${d.unit || '(no unit)'}`;
  return d.stated && (d.stated.value !== d.value || d.stated.unit !== d.unit) ? `${shown} (${d.reading})` : shown;
}

function checkDose(order: MedicationRequest, expected: NonNullable<MedicationExpectation['dose']>, options: DoseOptions, mismatches: string[]): void {
  const want = `${expected.value} ${expected.unit}`;
  const dosages = concurrentDosages(order);
  if (dosages.length === 0) mismatches.push(`no dose given, expected ${want}`);
  // Every concurrent dosage must give the expected dose ("500 mg in the morning" + "500 mg at night" is 500 mg BID).
  for (const dosage of dosages) {
    const dose = readDose(dosage, orderProduct(order), options);
    const inUnit = dose ? convert(dose.value, dose.unit, expected.unit) : undefined;
    if (!dose) mismatches.push(`no dose given, expected ${want}`);
    else if (inUnit === undefined) mismatches.push(`dose ${describeDose(dose)} cannot be compared with ${expected.unit}: dose unit ${dose.unit || '(none)'}${dose.stated ? ' and no known strength or concentration' : ''}`);
    else if (!withinTolerance(inUnit, expected.value, expected.tolerance ?? { relative: 0.1 })) mismatches.push(`dose is ${describeDose(dose)}, expected ${want}`);
    else continue;
    return;
  }
}

function checkRoute(order: MedicationRequest, expected: string[], mismatches: string[]): void {
  const reading = orderRoute(order);
  const wanted = expectedRoutes(expected);
  const ok = reading.routes.some((r) => wanted.routes.includes(r)) || reading.written.some((w) => wanted.literal.includes(w));
  if (ok) return;
  const written = reading.written.length ? reading.written.join('/') : '(missing)';
  const read = reading.routes.length ? ` (read as ${reading.routes.join(' or ')} from ${reading.from})` : '';
  mismatches.push(`route is ${written}${read}, expected ${expected.join(' or ')}`);
}

/** Administrations per day of an order: concurrent dosages add up ("1 tab in the morning" + "1 tab at night" = 2). */
/** Whether any of the order's concurrent dosages is taken as needed (PRN). */
export function orderAsNeeded(order: MedicationRequest): boolean {
  return concurrentDosages(order).some(isAsNeeded);
}

export function orderTimesPerDay(order: MedicationRequest): number | undefined {
  let total = 0;
  for (const d of concurrentDosages(order)) {
    const n = timesPerDay(d);
    if (n === undefined) return undefined;
    total += n;
  }
  return concurrentDosages(order).length ? total : undefined;
}

export function matchMedicationOrder(order: MedicationRequest, expected: MedicationExpectation): Match<MedicationRequest> {
  const mismatches: string[] = [];
  if (order.resourceType !== 'MedicationRequest') return matchOf([`is a ${order.resourceType}, not a MedicationRequest`]);
  checkPatient(order, expected.patient, mismatches);
  const { concept, medication } = medicationOf(order);
  if ((expected.codes || expected.ingredients) && !isMedication(concept, expected)) {
    const wanted = [...(expected.codes ?? []).map((c) => `rxnorm|${c}`), ...(expected.ingredients ?? []).map((c) => `ingredient rxnorm|${c}`)].join(' or ');
    const what = order.medicationReference && !medication ? `a reference (${order.medicationReference.reference}), not an RxNorm code` : describeConcept(concept);
    mismatches.push(`drug is ${what}, expected ${wanted}`);
  }
  checkOneOf('status', order.status, expected.status, mismatches);
  checkOneOf('intent', order.intent, expected.intent, mismatches);
  // The dose of a combination product is the expected ingredient's (lisinopril in lisinopril/HCTZ).
  const options: DoseOptions = { ingredients: expected.ingredients ?? (expected.codes ?? []).flatMap((c) => ingredientsOf(c)) };
  if (expected.dose) checkDose(order, expected.dose, options, mismatches);
  if (expected.dailyDose || expected.maxDailyDose) {
    const unit = (expected.dailyDose ?? expected.maxDailyDose)!.unit;
    const perDay = dailyDose(order, unit, options);
    if (perDay === undefined) mismatches.push(`daily dose unknown (dose, strength or frequency not stated), expected ${expected.dailyDose ? `${expected.dailyDose.value}` : `at most ${expected.maxDailyDose!.value}`} ${unit}/day`);
    else {
      if (expected.dailyDose && !withinTolerance(perDay, expected.dailyDose.value, expected.dailyDose.tolerance ?? { relative: 0.1 })) mismatches.push(`daily dose is ${round(perDay)} ${unit}, expected ${expected.dailyDose.value} ${unit}`);
      if (expected.maxDailyDose && perDay > expected.maxDailyDose.value * (1 + 1e-9)) mismatches.push(`daily dose is ${round(perDay)} ${unit}, above the maximum ${expected.maxDailyDose.value} ${unit}`);
    }
  }
  if (expected.route) checkRoute(order, expected.route, mismatches);
  if (expected.timesPerDay !== undefined) {
    const n = orderTimesPerDay(order);
    if (n === undefined) mismatches.push(`frequency not given (no timing and no recognisable text), expected ${expected.timesPerDay}/day`);
    else if (Math.abs(n - expected.timesPerDay) > 0.01) mismatches.push(`frequency is ${round(n)}/day, expected ${expected.timesPerDay}/day`);
  }
  return matchOf(mismatches, [`${label(order)}: ${describeConcept(concept)}, status ${order.status}`], order);
}

/** The best of several orders for the expectation (e.g. every MedicationRequest the session created). */
export function findMedicationOrder(orders: MedicationRequest[], expected: MedicationExpectation): Match<MedicationRequest> {
  return bestOf(orders, (o) => matchMedicationOrder(o, expected), label, `no MedicationRequest was written (expected ${[...(expected.codes ?? []), ...(expected.ingredients ?? [])].map((c) => `${RXNORM}|${c}`).join(' or ')})`);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
