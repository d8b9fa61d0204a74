// A clinician who, above goal, switches lisinopril to the single-pill lisinopril/HCTZ at the same lisinopril dose
// (RxNorm SCD, "1 tablet"; the old order stopped), orders a BMP by CPT in 3 weeks, and at goal changes nothing.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'above goal: lisinopril/HCTZ single pill (SCD, 1 tablet) replacing lisinopril; CPT BMP';

const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const newest = (l: Observation[]) => l.filter((o) => o.valueQuantity?.value !== undefined || o.component).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
const part = (o: Observation, code: string) => o.component?.find((c) => c.code?.coding?.some((x) => x.code === code))?.valueQuantity?.value;
const mgOf = (o: MedicationRequest) => {
  const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  const strength = Number(/(\d+)\s*mg/i.exec(JSON.stringify(o.medicationCodeableConcept))?.[1] ?? '10');
  return q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : (q?.value ?? 1) * strength;
};

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const bps = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|85354-9' })).slice(0, 2);
  const k = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2823-3' }))[0]!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))[0]!;
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const lis = meds.filter((o) => /lisinopril/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const dose = lis.reduce((s, o) => s + mgOf(o), 0);
  const readings = bps.map((o) => `${part(o, '8480-6')}/${part(o, '8462-4')} mmHg on ${(o.effectiveDateTime ?? '').slice(0, 10)}`);
  const aboveGoal = bps.every((o) => part(o, '8480-6')! >= 130 || part(o, '8462-4')! >= 80);
  const subject = { reference: `Patient/${patient}` };
  let plan = `Continue lisinopril ${dose} mg daily; BP is at goal.`;
  if (aboveGoal) {
    for (const o of lis) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'Changed to lisinopril/HCTZ combination' } });
    const [code, display] = dose >= 20 ? ['197886', 'hydrochlorothiazide 12.5 MG / lisinopril 20 MG Oral Tablet'] : ['197885', 'hydrochlorothiazide 12.5 MG / lisinopril 10 MG Oral Tablet'];
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { coding: [{ system: RX, code, display }] }, dosageInstruction: [{ text: 'Take 1 tablet by mouth once daily', doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }] });
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '80048', display: 'Basic metabolic panel' }] }, occurrenceDateTime: new Date(Date.parse(now) + 21 * 86_400_000).toISOString() });
    plan = `Start lisinopril-hydrochlorothiazide ${dose >= 20 ? '20-12.5' : '10-12.5'} mg one tablet daily in place of lisinopril alone; BMP in 3 weeks.`;
  }
  const text = `Essential hypertension. Blood pressure ${readings.join(' and ')}. Potassium ${k.valueQuantity!.value} mmol/L, eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2. ${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(plan);
}
