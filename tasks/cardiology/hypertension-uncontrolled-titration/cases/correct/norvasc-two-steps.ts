// A clinician who, above goal, adds Norvasc 5 mg (brand, text only; no lab needed for a CCB) and, when a reading is
// >= 150/90 with K <= 5.0, also doubles lisinopril (two first-line steps, old order stopped, BMP); at goal no change.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'above goal: Norvasc 5 mg; far above with normal K: also lisinopril doubled + BMP';

const newest = (l: Observation[]) => l.filter((o) => o.valueQuantity?.value !== undefined || o.component).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
const part = (o: Observation, code: string) => o.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const bps = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|85354-9' })).slice(0, 2);
  const k = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3' }))[0]!.valueQuantity!.value!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))[0]!.valueQuantity!.value!;
  const lis = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => /lisinopril/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const above = bps.every((o) => part(o, '8480-6')! >= 130 || part(o, '8462-4')! >= 80);
  const far = bps.some((o) => part(o, '8480-6')! >= 150 || part(o, '8462-4')! >= 90);
  const subject = { reference: `Patient/${patient}` };
  const bpLine = bps.map((o) => `BP ${part(o, '8480-6')}/${part(o, '8462-4')} mmHg (${(o.effectiveDateTime ?? '').slice(0, 10)})`).join(', ');
  const steps: string[] = [];
  if (above) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Norvasc 5 mg tablet' }, dosageInstruction: [{ text: '1 tab PO daily' }] });
    steps.push('start Norvasc (amlodipine) 5 mg daily');
    if (far && k <= 5.0) {
      for (const o of lis) {
        const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
        const mg = q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : Number(/(\d+)\s*mg/i.exec(JSON.stringify(o.medicationCodeableConcept))?.[1] ?? '10');
        await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'dose increased' } });
        await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '29046', display: 'lisinopril' }] }, dosageInstruction: [{ text: `${mg * 2} mg once daily`, doseAndRate: [{ doseQuantity: { value: mg * 2, unit: 'mg' } }] }] });
        steps.push(`increase lisinopril to ${mg * 2} mg daily`);
      }
      await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '24323-8', display: 'Comprehensive metabolic 2000 panel - Serum or Plasma' }] } });
      steps.push('CMP within 2 weeks');
    }
  }
  const plan = steps.length ? steps.join('; ') : 'at goal - continue lisinopril, no changes';
  const text = `Hypertension review. ${bpLine}. Potassium ${k} mmol/L; eGFR ${egfr} mL/min/1.73m2. Plan: ${plan}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(`Plan: ${plan}.`);
}
