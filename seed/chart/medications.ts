// Medication courses (start, stop with a reason, dose change) and the MedicationRequest written for each course once
// the chart is finished, with its status history. The allergy guard lives here: no active order for an allergen.
import type { MedicationRequest } from '@medplum/fhirtypes';
import { HL7, SNOMED, UCUM, codingOf, ingredientsOf } from '../codes/index.ts';
import { plantedErrorTag } from '../coherence.ts';
import { therapyClash } from '../drug-classes.ts';
import { DAY, formatDate } from '../time.ts';
import { cc, quantity, ref } from './fhir-values.ts';
import type { ChartState } from './state.ts';
import type { Drug, MedCourse, Visit } from './types.ts';

const ROUTES = { oral: '26643006', inhaled: '447694001', subcutaneous: '34206005' } as const;
const GTS: Record<number, string> = { 1: 'QD', 2: 'BID', 3: 'TID', 0: 'PRN' };

export interface PrescribeOptions {
  indication?: string;
  end?: number;
  stopReason?: { code: string; text: string };
  completes?: boolean;
  prior?: MedCourse;
}

/**
 * Start a medication course. Refuses (returns undefined) when the patient is allergic to an ingredient: no
 * active order for an allergen drug, ever. Reconciles with the one medication list (reconcile()): the course
 * returned may be one already on it.
 */
export function prescribe(chart: ChartState, drug: Drug, visit: Visit, options: PrescribeOptions = {}): MedCourse | undefined {
  if (chart.isAllergicTo(drug.rxcui)) return undefined;
  const course: MedCourse = {
    id: chart.newId('mr'), drug, start: visit.start, end: options.end, stopReason: options.stopReason,
    indication: options.indication, prescriber: visit.clinician, visit, prior: options.prior?.id, completes: options.completes,
  };
  const kept = reconcile(chart, course, visit);
  if (kept !== course) return kept;
  chart.courses.push(course);
  visit.plan.push(course.prior ? `Changed to ${drug.product}: ${drug.sig}.` : `Started ${drug.product}: ${drug.sig}.`);
  return course;
}

/**
 * One medication list per patient: modules run one after another, not in calendar order, so a new course is checked
 * against every course it would overlap (the same ingredient, an ACE inhibitor with an ARB, two beta blockers).
 * - An earlier course of the same ingredient continues (the course returned), or gives way to a higher dose.
 * - An earlier course of a clashing drug is stopped: the new drug replaces it.
 * - A course another module wrote for a later date ends this one there (dose changed, or replaced).
 * A second prescriber's duplicate may instead be kept beside the first at the mess rate `duplicateOrder`, both
 * orders tagged as a planted error.
 */
function reconcile(chart: ChartState, course: MedCourse, visit: Visit): MedCourse {
  const ingredients = ingredientsOf(course.drug.rxcui);
  for (const other of [...chart.courses]) {
    const end = course.end ?? Infinity;
    if (Math.min(other.end ?? Infinity, end) - Math.max(other.start, course.start) <= DAY) continue;
    const clash = therapyClash(ingredientsOf(other.drug.rxcui), ingredients);
    if (!clash) continue;
    if (clash === 'same-ingredient' && other.prescriber.practitionerId !== course.prescriber.practitionerId && !other.planted && chart.mess.plantDuplicateOrder()) {
      other.planted = course.planted = 'duplicate-order';
      continue;
    }
    if (other.start <= course.start) {
      if (clash === 'same-ingredient' && !(course.drug.doseUnit === other.drug.doseUnit && course.drug.dose > other.drug.dose)) {
        visit.plan.push(`Continued ${other.drug.product} (already on the medication list).`);
        return other;
      }
      stop(other, course.start, { code: 'altchoice', text: clash === 'same-ingredient' ? 'dose changed' : `replaced by ${course.drug.product}` }, visit);
      if (clash === 'same-ingredient') course.prior = other.id;
    } else if (end > other.start) {
      course.end = other.start;
      course.stopReason = { code: 'altchoice', text: clash === 'same-ingredient' ? 'dose changed' : `replaced by ${other.drug.product}` };
      if (clash === 'same-ingredient' && !other.prior) other.prior = course.id;
    }
  }
  return course;
}

/** Stop a course at t (status history: stopped with a reason). */
export function stop(course: MedCourse, t: number, reason: { code: string; text: string }, visit?: Visit): void {
  course.end = t;
  course.stopReason = reason;
  visit?.plan.push(`Stopped ${course.drug.product} (${reason.text}).`);
}

/** Change dose: the old order stops ("dose changed"), a new one starts referring to it (priorPrescription). */
export function change(chart: ChartState, course: MedCourse, drug: Drug, visit: Visit, why: string): MedCourse | undefined {
  stop(course, visit.start, { code: 'altchoice', text: why });
  visit.plan.pop();
  return prescribe(chart, drug, visit, { indication: course.indication, prior: course });
}

export function medicationRequest(chart: ChartState, c: MedCourse): MedicationRequest {
  const d = c.drug;
  const ended = c.end !== undefined && c.end <= chart.ref;
  const status: MedicationRequest['status'] = !ended ? 'active' : c.completes ? 'completed' : 'stopped';
  const medication = chart.mess.medication(d);
  const supply = d.supply ?? (d.perDay || 1) * 30;
  const mr: MedicationRequest = {
    resourceType: 'MedicationRequest', id: c.id, status, intent: 'order',
    category: [cc(HL7.medicationRequestCategory, 'outpatient')],
    medicationCodeableConcept: medication,
    subject: ref('Patient', chart.patientId),
    authoredOn: chart.instant(c.start),
    requester: ref('Practitioner', c.prescriber.practitionerId, c.prescriber.name),
    dosageInstruction: [{
      sequence: 1, text: d.sig,
      timing: d.perDay > 0
        ? { repeat: { frequency: d.perDay, period: 1, periodUnit: d.weekly ? 'wk' : 'd', boundsPeriod: { start: formatDate(c.start) } }, code: cc(HL7.timingAbbreviation, d.weekly ? 'WK' : GTS[d.perDay] ?? 'QD') }
        : { code: cc(HL7.timingAbbreviation, 'PRN') },
      asNeededBoolean: d.perDay === 0,
      route: cc(SNOMED, ROUTES[d.route]),
      doseAndRate: [{ doseQuantity: quantity(d.dose, d.doseUnit) }],
    }],
    dispenseRequest: {
      numberOfRepeatsAllowed: c.completes ? 0 : 5,
      quantity: { value: supply, unit: d.route === 'inhaled' ? 'puff' : d.route === 'subcutaneous' ? 'IU' : 'tablet', system: UCUM.system, code: d.route === 'inhaled' ? '{puff}' : d.route === 'subcutaneous' ? '[iU]' : '{tbl}' },
      expectedSupplyDuration: { value: 30, unit: 'day', system: UCUM.system, code: 'd' },
    },
  };
  if (c.planted) mr.meta = { tag: [plantedErrorTag(c.planted)] };
  if (c.visit) mr.encounter = ref('Encounter', c.visit.id);
  if (c.indication) {
    const cond = chart.conditions.get(c.indication);
    if (cond) mr.reasonReference = [ref('Condition', cond.id)];
  }
  if (c.prior) mr.priorPrescription = ref('MedicationRequest', c.prior);
  if (status === 'stopped' && c.stopReason) {
    mr.statusReason = { coding: [codingOf(HL7.medicationRequestStatusReason, c.stopReason.code)], text: c.stopReason.text };
  }
  if (ended) mr.dosageInstruction![0].timing!.repeat = { ...mr.dosageInstruction![0].timing!.repeat, boundsPeriod: { start: formatDate(c.start), end: formatDate(c.end!) } };
  return mr;
}
