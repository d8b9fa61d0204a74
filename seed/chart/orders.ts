// Orders and what they produce: referrals, imaging (order, procedure, report, report document), future lab orders,
// biopsies with pathology, procedures, care plans and booked appointments.
import type { DiagnosticReport, ServiceRequest } from '@medplum/fhirtypes';
import { HL7, LOINC, SNOMED } from '../codes/index.ts';
import { LABS, PANELS, type LabKey, type PanelKey } from '../codes/labs.ts';
import { SPECIALTIES, type Clinician, type Specialty } from '../staff.ts';
import { DAY, HOUR, MINUTE, formatInstant } from '../time.ts';
import { cc, ref } from './fhir-values.ts';
import { document, imagingReportText } from './notes.ts';
import type { ChartState } from './state.ts';
import type { Visit } from './types.ts';

export function referral(chart: ChartState, visit: Visit, to: Specialty, reason: string): void {
  chart.resources.push({
    resourceType: 'ServiceRequest', id: chart.newId('sr'), status: 'completed', intent: 'order',
    category: [cc(SNOMED, '386053000')], code: cc(SNOMED, '3457005', `Referral to ${SPECIALTIES[to].clinic}`),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    authoredOn: chart.instant(visit.start), requester: ref('Practitioner', visit.clinician.practitionerId),
    performerType: cc(SNOMED, SPECIALTIES[to].snomed),
    performer: [ref('PractitionerRole', chart.clinician(to).roleId)],
    reasonCode: [{ text: reason }],
  } satisfies ServiceRequest);
  visit.plan.push(`Referred to ${chart.clinician(to).name} (${SPECIALTIES[to].clinic}) for ${reason}.`);
}

export type ReportCode = { table: 'LOINC' | 'SNOMED'; code: string };

/** An imaging study: order, procedure, report with conclusion, and the imaging report document. */
export function imaging(chart: ChartState, visit: Visit, procedure: string, reportCode: ReportCode, conclusion: string, reason?: string): void {
  const t = visit.start + HOUR;
  const orderId = chart.newId('sr');
  const radiologist = chart.clinician('radiology');
  chart.resources.push({
    resourceType: 'ServiceRequest', id: orderId, status: 'completed', intent: 'order',
    category: [cc(SNOMED, '363679005')], code: cc(SNOMED, procedure),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    authoredOn: chart.instant(visit.start), requester: ref('Practitioner', visit.clinician.practitionerId),
    ...(reason ? { reasonCode: [{ text: reason }] } : {}),
  } satisfies ServiceRequest);
  const procId = chart.newId('proc');
  chart.resources.push({
    resourceType: 'Procedure', id: procId, status: 'completed', code: cc(SNOMED, procedure),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id), basedOn: [ref('ServiceRequest', orderId)],
    performedDateTime: chart.instant(t), performer: [{ actor: ref('Practitioner', radiologist.practitionerId) }],
  });
  const code = reportCode.table === 'LOINC' ? cc(LOINC, reportCode.code) : cc(SNOMED, reportCode.code);
  const drId = chart.newId('dr');
  chart.resources.push({
    resourceType: 'DiagnosticReport', id: drId, status: 'final', basedOn: [ref('ServiceRequest', orderId)],
    category: [cc(HL7.diagnosticService, 'RAD')], code,
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    effectiveDateTime: chart.instant(t), issued: formatInstant(t + 3 * HOUR),
    resultsInterpreter: [ref('Practitioner', radiologist.practitionerId)], conclusion,
  } satisfies DiagnosticReport);
  const title = SNOMED.concepts[procedure];
  const text = imagingReportText(chart, { title, at: t, orderedBy: visit.clinician, radiologist, reason, conclusion });
  document(chart, visit, '18748-4', text, t + 3 * HOUR, radiologist, `${title} report`);
  visit.results.push(`${title}: ${conclusion}`);
}

/** An open lab order to be drawn before a future visit (status active, occurrence after the reference date). */
export function futureOrder(chart: ChartState, lab: LabKey | PanelKey, at: number, clinician: Clinician, reasonKey?: string): void {
  const loinc = lab in PANELS ? PANELS[lab as PanelKey].loinc : LABS[lab as LabKey].loinc;
  const cond = reasonKey ? chart.conditions.get(reasonKey) : undefined;
  chart.resources.push({
    resourceType: 'ServiceRequest', id: chart.newId('sr'), status: 'active', intent: 'order',
    category: [cc(SNOMED, '108252007')], code: cc(LOINC, loinc),
    subject: ref('Patient', chart.patientId), authoredOn: chart.instant(Math.min(at - 14 * DAY, chart.ref - DAY)),
    occurrenceDateTime: formatInstant(chart.clinicTime(at)), requester: ref('Practitioner', clinician.practitionerId),
    ...(cond ? { reasonReference: [ref('Condition', cond.id)] } : {}),
  } satisfies ServiceRequest);
}

/** A biopsy with its surgical pathology report (DiagnosticReport with conclusion, and the report document). */
export function pathology(chart: ChartState, visit: Visit, site: string, conclusion: string): void {
  const t = visit.start + HOUR;
  const procId = chart.newId('proc');
  chart.resources.push({
    resourceType: 'Procedure', id: procId, status: 'completed', code: cc(SNOMED, '86273004', `Biopsy of ${site}`),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    performedDateTime: chart.instant(t), performer: [{ actor: ref('Practitioner', visit.clinician.practitionerId) }],
  });
  const reported = t + 2 * DAY;
  chart.resources.push({
    resourceType: 'DiagnosticReport', id: chart.newId('dr'), status: 'final',
    category: [cc(HL7.diagnosticService, 'SP')], code: cc(SNOMED, '86273004', `Surgical pathology: ${site} biopsy`),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    effectiveDateTime: chart.instant(t), issued: formatInstant(reported),
    performer: [ref('Organization', chart.ctx.staff.healthSystemId)], conclusion,
  } satisfies DiagnosticReport);
  visit.results.push(`Pathology (${site} biopsy): ${conclusion}`);
}

export function procedure(chart: ChartState, visit: Visit, code: string, note?: string): void {
  chart.resources.push({
    resourceType: 'Procedure', id: chart.newId('proc'), status: 'completed', code: cc(SNOMED, code),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    performedDateTime: chart.instant(visit.start + HOUR), performer: [{ actor: ref('Practitioner', visit.clinician.practitionerId) }],
    ...(note ? { note: [{ text: note }] } : {}),
  });
  visit.plan.push(`${SNOMED.concepts[code]} performed${note ? `: ${note}` : ''}.`);
}

export function carePlan(chart: ChartState, key: string, visit: Visit, activities: string[]): void {
  const c = chart.conditions.get(key);
  if (!c) return;
  chart.resources.push({
    resourceType: 'CarePlan', id: chart.newId('cp'), status: chart.has(key) ? 'active' : 'completed', intent: 'plan',
    category: [cc(HL7.carePlanCategory, 'assess-plan')],
    title: `${c.text} care plan`, description: activities.join(' '),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    period: { start: chart.instant(visit.start) }, created: chart.instant(visit.start),
    author: ref('Practitioner', visit.clinician.practitionerId),
    addresses: [ref('Condition', c.id)],
    activity: activities.map((text) => ({ detail: { status: 'in-progress', description: text } })),
  });
}

/** A future appointment (booked, after the reference date) with the visit's clinician. */
export function appointment(chart: ChartState, at: number, clinician: Clinician, description: string, reasonKey?: string): void {
  const start = chart.clinicTime(at);
  const cond = reasonKey ? chart.conditions.get(reasonKey) : undefined;
  chart.resources.push({
    resourceType: 'Appointment', id: chart.newId('appt'), status: start > chart.ref ? 'booked' : 'fulfilled',
    appointmentType: cc(HL7.appointmentReason, 'FOLLOWUP'),
    description, start: formatInstant(start), end: formatInstant(start + 30 * MINUTE), minutesDuration: 30,
    ...(cond ? { reasonReference: [ref('Condition', cond.id)] } : {}),
    participant: [
      { actor: ref('Patient', chart.patientId, chart.name), status: 'accepted', required: 'required' },
      { actor: ref('Practitioner', clinician.practitionerId, clinician.name), status: 'accepted', required: 'required' },
      { actor: ref('Location', clinician.locationId), status: 'accepted', required: 'required' },
    ],
  });
}
