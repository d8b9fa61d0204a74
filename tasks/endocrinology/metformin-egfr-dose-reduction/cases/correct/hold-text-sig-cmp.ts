// Below 30 puts metformin on hold with the renal reason (out of use); at 30-44 stops it and writes a text-only brand
// order "Glucophage 500 mg" with a text-only sig; >= 45 leaves it. CMP ordered; JSON answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'hold below 30, stop + text-only brand order with a text sig at 30-44, CMP';

function mgPerDay(o: MedicationRequest): number {
  const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const strength = Number(/(\d{3,4})\s*mg/i.exec(`${o.medicationCodeableConcept?.text ?? ''} ${o.medicationCodeableConcept?.coding?.[0]?.display ?? ''}`)?.[1] ?? 1000);
  const perDose = q?.code === '{tbl}' || /tab/i.test(q?.unit ?? '') ? q!.value! * strength : q?.value ?? strength;
  return perDose * (o.dosageInstruction?.[0]?.timing?.repeat?.frequency ?? 2);
}

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  const egfrs = (await http.search<Observation>('Observation', { patient, code: 'http://ehr-gym.example/fhir/CodeSystem/flowsheet|EGFR,http://loinc.org|33914-3' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
  const egfr = egfrs[0]!.valueQuantity!.value!;
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }))
    .filter((o) => /metformin|glucophage/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const current = orders.reduce((s, o) => s + mgPerDay(o), 0);
  for (const order of orders) {
    if (egfr >= 45) break;
    await http.read('MedicationRequest', order.id!);
    await http.request('PATCH', `MedicationRequest/${order.id}`, [
      { op: 'replace', path: '/status', value: egfr < 30 ? 'on-hold' : 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: `eGFR ${egfr}` } },
    ]);
  }
  if (egfr >= 30 && egfr < 45) {
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'Glucophage 500 mg' }, dosageInstruction: [{ text: '500 mg by mouth twice a day with meals' }],
    });
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '24323-8', display: 'Comprehensive metabolic 2000 panel' }] },
  });
  await submit({ egfr, dailyDoseMg: egfr < 30 ? 0 : egfr < 45 ? 1000 : current });
}
