// Reference solution: read the patient, the hospital encounter, the discharge summary and every medication statement
// it references, the active orders (each read before any change), the problem list, allergies and the discharge labs;
// then compare drug by drug with this file's own code: a stopped drug still ordered is stopped, a new drug is
// ordered at the discharge sig, a changed dose is ordered anew and the old order stopped; a note and a reply follow.
import type { Composition, Encounter, MedicationRequest, MedicationStatement, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, dailyDose, drugIngredientNames } from '../../../graders/lib/index.ts';
import { DISCHARGE_MEDICATIONS_SECTION, DISCHARGE_SUMMARY, DOSE_TOLERANCE, LOINC, STOPPED_STATUS } from './facts.ts';

const identity = (names: string[]) => [...names].sort().join('+');
const perDay = (concept: MedicationRequest['medicationCodeableConcept'], dosage: MedicationRequest['dosageInstruction']) =>
  dailyDose({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: {}, medicationCodeableConcept: concept, dosageInstruction: dosage }, 'mg');
const close = (a?: number, b?: number) => a !== undefined && b !== undefined && Math.abs(a - b) <= DOSE_TOLERANCE * Math.max(a, b);
const nameOf = (s: { medicationCodeableConcept?: { text?: string; coding?: { display?: string }[] } }) => s.medicationCodeableConcept?.text ?? s.medicationCodeableConcept?.coding?.[0]?.display ?? 'medication';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const encounters = await fhir.search<Encounter>('Encounter', { patient, class: 'IMP', _sort: '-date' });
  const summaries = (await fhir.search<Composition>('Composition', { patient, type: `${DISCHARGE_SUMMARY.system}|${DISCHARGE_SUMMARY.code}`, _sort: '-date' }))
    .filter((c) => c.status === 'final').sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
  const summary = summaries[0];
  if (!summary) return finish('No discharge summary on file; nothing to reconcile against.');
  await fhir.read('Composition', summary.id!);
  const discharged: MedicationStatement[] = [];
  const stoppedInHospital: MedicationStatement[] = [];
  for (const section of summary.section ?? []) {
    const isDischargeList = (section.code?.coding ?? []).some((c) => c.system === LOINC && c.code === DISCHARGE_MEDICATIONS_SECTION.code);
    for (const entry of section.entry ?? []) {
      const [type, id] = (entry.reference ?? '').split('/');
      if (type !== 'MedicationStatement' || !id) continue;
      const statement = await fhir.read<MedicationStatement>('MedicationStatement', id);
      if (isDischargeList && statement.status === 'active') discharged.push(statement);
      else if (statement.status === STOPPED_STATUS) stoppedInHospital.push(statement);
    }
  }
  const listed = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const orders: MedicationRequest[] = [];
  for (const o of listed) orders.push(await fhir.read<MedicationRequest>('MedicationRequest', o.id!));
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const labs = await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|33914-3,${LOINC}|2823-3`, _sort: '-date' });
  const ordersOf = (names: string[]) => orders.filter((o) => identity(drugIngredientNames(o.medicationCodeableConcept)) === identity(names));

  const changes: string[] = [];
  const stop = async (order: MedicationRequest, why: string) => {
    await fhir.patch('MedicationRequest', order.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: why } },
    ]);
  };
  const order = async (s: MedicationStatement, reason: string) => {
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      requester: { reference: task.requester.reference }, medicationCodeableConcept: s.medicationCodeableConcept, dosageInstruction: s.dosage,
      reasonCode: [{ text: reason }], note: [{ text: `Per discharge summary ${summary.date.slice(0, 10)}` }],
    });
  };
  for (const s of stoppedInHospital) {
    const names = drugIngredientNames(s.medicationCodeableConcept);
    for (const o of ordersOf(names)) {
      await stop(o, `Stopped in hospital: ${s.statusReason?.[0]?.text ?? 'see discharge summary'}`);
      changes.push(`Stopped ${nameOf(o)}: it was discontinued in hospital (${s.statusReason?.[0]?.text ?? 'see summary'}).`);
    }
  }
  for (const s of discharged) {
    const names = drugIngredientNames(s.medicationCodeableConcept);
    const current = ordersOf(names);
    const target = perDay(s.medicationCodeableConcept, s.dosage);
    const sig = s.dosage?.[0]?.text ?? '';
    if (current.length === 0) {
      await order(s, 'Started in hospital (discharge medication list)');
      changes.push(`${nameOf(s)}: STARTED ${sig} (new at discharge; ${target} mg/day)`);
      continue;
    }
    const ordered = current.reduce((t, o) => t + (perDay(o.medicationCodeableConcept, o.dosageInstruction) ?? NaN), 0);
    if (close(ordered, target)) continue;
    for (const o of current) await stop(o, `Dose changed at discharge to ${sig}`);
    await order(s, 'Dose changed in hospital (discharge medication list)');
    changes.push(`${nameOf(s)}: DOSE CHANGED from ${ordered} mg/day to ${sig} (${target} mg/day)`);
  }

  const lab = (code: string) => labs.find((o) => o.code?.coding?.some((c) => c.code === code))?.valueQuantity?.value;
  const discharge = encounters[0]?.period?.end?.slice(0, 10) ?? summary.date.slice(0, 10);
  const body = [
    `Medication reconciliation after discharge on ${discharge} (discharge summary ${summary.id}).`,
    `Discharge list: ${discharged.map((s) => `${nameOf(s)} ${s.dosage?.[0]?.text ?? ''}`).join('; ')}.`,
    changes.length ? `Discrepancies resolved: ${changes.join(' ')}` : 'No discrepancies: the active orders match the discharge medication list; no changes made.',
    `Discharge labs: eGFR ${lab('33914-3') ?? 'n/a'}, K ${lab('2823-3') ?? 'n/a'}.`,
    'Reconciled list to be reviewed with the patient at the transition-of-care visit.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Medication reconciliation after hospital discharge', text: body }));
  await finish(changes.length ? `Reconciled against the discharge summary. ${changes.join(' ')} All other medications match and were left unchanged. Note filed.`
    : 'Reconciled against the discharge summary: no discrepancies - the active orders match the discharge medication list, so no changes were made. Note filed.');
}
