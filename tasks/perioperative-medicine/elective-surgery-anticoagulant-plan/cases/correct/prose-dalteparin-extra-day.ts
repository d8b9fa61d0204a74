// A cautious clinician: one extra day off every drug (the guidelines give minimum intervals), dalteparin (Fragmin,
// text only) 200 IU/kg once daily to bridge the mechanical valve, the INR as a text-only "PT/INR" CPT order for the
// morning of surgery, US-format dates and a prose answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';

export const description = 'extra day off, Fragmin 200 IU/kg daily (text), PT/INR CPT 85610 morning of surgery, US dates, prose';

const shift = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5);
const us = (d: Date) => `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const oac = meds.filter((m) => m.status === 'active').find((m) => /warfarin|apixaban|rivaroxaban|edoxaban|dabigatran/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  await http.read('MedicationRequest', oac.id!);
  const srs = await http.search<ServiceRequest>('ServiceRequest', { patient });
  const surgery = srs.find((s) => s.status === 'active' && s.occurrenceDateTime)!;
  await http.read('ServiceRequest', surgery.id!);
  const labs = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|29463-7' });
  const latest = (code: string) => labs.filter((o) => o.code?.coding?.some((c) => c.code === code)).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0].valueQuantity!.value!;
  const cr = latest('2160-0');
  const kg = latest('29463-7');
  const b = new Date(p.birthDate!);
  const n = new Date(now);
  const age = n.getUTCFullYear() - b.getUTCFullYear() - (n.getUTCMonth() < b.getUTCMonth() || (n.getUTCMonth() === b.getUTCMonth() && n.getUTCDate() < b.getUTCDate()) ? 1 : 0);
  const crcl = ((140 - age) * kg) / (72 * cr) * (p.gender === 'female' ? 0.85 : 1);
  const name = JSON.stringify(oac.medicationCodeableConcept).toLowerCase();
  const drug = ['warfarin', 'apixaban', 'rivaroxaban', 'edoxaban', 'dabigatran'].find((d) => name.includes(d))!;
  const date = surgery.occurrenceDateTime!.slice(0, 10);
  const high = /replacement|arthroplasty/i.test(JSON.stringify(surgery.code));
  const hold = (drug === 'warfarin' ? 5 : drug === 'dabigatran' && crcl < 50 ? (high ? 4 : 2) : (high ? 2 : 1)) + 1;
  const last = shift(date, -(hold + 1));
  const valve = conditions.some((c) => c.clinicalStatus?.coding?.[0]?.code === 'active' && /mechanical/i.test(c.code?.text ?? '') && /mitral/i.test(c.code?.text ?? ''));
  const bridging = drug === 'warfarin' && valve;
  if (bridging) {
    const units = Math.round((200 * kg) / 500) * 500;
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { text: 'Fragmin (dalteparin) injection' },
      dosageInstruction: [{ text: `${units} units subcut once daily`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: units, unit: 'IU' } }] }] });
  }
  if (drug === 'warfarin') {
    await http.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '85610' }], text: 'PT/INR' }, occurrenceDateTime: `${date}T06:00:00Z` });
  }
  const plan = `Cockcroft-Gault CrCl ${crcl.toFixed(0)} mL/min. The last dose of ${drug} should be on ${us(last)}. ${bridging ? `Bridging with dalteparin ${Math.round((200 * kg) / 500) * 500} units daily (Fragmin), last dose 24 h before surgery; resume 48-72 h post-op.` : 'No bridging (not indicated).'} ${drug === 'warfarin' ? 'INR the morning of surgery.' : ''} Restart the anticoagulant after surgery once hemostasis is secure.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(plan).toString('base64') } }] });
  await submit(plan);
}
