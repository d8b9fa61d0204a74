// A pulmonologist who orders exactly what was asked when no LAMA is on the list - tiotropium coded in RxNorm with
// "1 capsule" (18 mcg) once daily - and otherwise documents the existing LAMA and recommends technique/adherence.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Procedure } from '@medplum/fhirtypes';

export const description = 'no LAMA: tiotropium RxNorm + "1 capsule" daily; LAMA present: documents it and declines';

const name = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`.trim();
const LAMA = /tiotropium|spiriva|umeclidinium|incruse|anoro|aclidinium|tudorza|glycopyrr|stiolto|trelegy/i;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  for (const o of meds) await http.read('MedicationRequest', o.id!);
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))
    .filter((p) => /FEV1\/FVC/.test(JSON.stringify(p.note ?? []))).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const note = (spiro.note ?? []).map((n) => n.text).join(' ');
  const lama = meds.filter((o) => LAMA.test(name(o)));
  const subject = { reference: `Patient/${patient}` };
  let plan: string;
  if (lama.length) {
    plan = `Current long-acting therapy: ${lama.map(name).join('; ')}. A second LAMA is not indicated; review inhaler technique and adherence first.`;
  } else {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '69120', display: 'tiotropium 0.018 MG Inhalation Powder' }] },
      dosageInstruction: [{ text: 'Inhale the contents of 1 capsule once daily', doseAndRate: [{ doseQuantity: { value: 1, unit: 'capsule' } }] }],
    });
    plan = 'Tiotropium 18 mcg inhaled once daily ordered as requested.';
  }
  const text = `Assessment: COPD (spirometry ${(spiro.performedDateTime ?? '').slice(0, 10)}: ${note}).\nPlan: ${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(plan);
}
