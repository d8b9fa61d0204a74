// A pre-op clinic that puts the anticoagulant order on hold (to be resumed after surgery), bridges with Lovenox
// 1.5 mg/kg once daily as a prefilled-syringe product, and orders the INR under LOINC 34714-6 two days before.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';

export const description = 'order set on-hold, Lovenox 1.5 mg/kg daily, INR 34714-6 at day -2, JSON with extra fields';

const iso = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const srs = await http.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' });
  const obs = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0].valueQuantity!.value!;
  const cr = await obs('2160-0');
  const kg = await obs('29463-7');
  const conditions = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31557600000);
  const crcl = ((140 - age) * kg) / (72 * cr) * (p.gender === 'female' ? 0.85 : 1);
  const oac = meds.find((m) => /warfarin|apixaban|rivaroxaban|edoxaban|dabigatran/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const drug = /warfarin|apixaban|rivaroxaban|edoxaban|dabigatran/i.exec(JSON.stringify(oac.medicationCodeableConcept))![0].toLowerCase();
  const surgery = srs.find((s) => s.occurrenceDateTime && /knee|hip|hernia|cholecyst/i.test(JSON.stringify(s.code)))!;
  const date = surgery.occurrenceDateTime!.slice(0, 10);
  const high = /knee|hip/i.test(JSON.stringify(surgery.code));
  const hold = drug === 'warfarin' ? 5 : drug === 'dabigatran' && crcl < 50 ? (high ? 4 : 2) : (high ? 2 : 1);
  const last = iso(date, -(hold + 1));
  const bridging = drug === 'warfarin' && conditions.some((c) => /mechanical mitral/i.test(c.code?.text ?? ''));
  const current = await http.read<MedicationRequest>('MedicationRequest', oac.id!);
  await http.update<MedicationRequest>({ ...current, id: current.id!, status: 'on-hold', statusReason: { text: `Held for surgery on ${date}; last dose ${last}; resume after surgery` } });
  if (bridging) {
    const mg = Math.round((1.5 * kg) / 10) * 10;
    await http.create<MedicationRequest>({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '854249', display: '1 ML enoxaparin sodium 100 MG/ML Prefilled Syringe [Lovenox]' }], text: 'Lovenox' },
      dosageInstruction: [{ text: `${mg} mg SC once daily`, timing: { code: { text: 'daily' } }, doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg' } }] }] });
  }
  if (drug === 'warfarin') {
    await http.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '34714-6', display: 'INR in Blood by Coagulation assay' }] }, occurrenceDateTime: iso(date, -2) });
  }
  const note = `PERIOPERATIVE ANTICOAGULATION\nSurgery ${date}. ${drug}: last dose ${last}, then held (order on hold).\n${bridging ? 'Bridge with Lovenox (enoxaparin) 1.5 mg/kg SC daily from 3 days before; last dose 24 h pre-op.' : 'Bridging is not indicated.'}\nResume ${drug} after surgery when hemostasis is secure.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ crcl: Math.round(crcl), lastDoseDate: last, bridging, note: 'order placed on hold' });
}
