// Decides right but quotes whatever spirometry is on file as current and never asks for a new one (a 2013 FEV1 as
// today's lung function); only the chart with an old spirometry catches it.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationDispense, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'quotes a 12-year-old spirometry as current, no repeat';
export const catches = ['lung_function_current'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const act = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|82668-5' })).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const fills = (await http.search<MedicationDispense>('MedicationDispense', { patient })).filter((f) => Date.parse(f.whenHandedOver ?? '') >= Date.parse(now) - 180 * 86_400_000);
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' })).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const score = act.valueQuantity!.value!;
  const subject = { reference: `Patient/${patient}` };
  const fev1 = /FEV1\s*(\d+)%/.exec(JSON.stringify(spiro.note))![1];
  let plan = score >= 20 ? 'Well controlled: continue fluticasone.' : 'Not well controlled with poor adherence: continue fluticasone daily with a spacer.';
  if (score < 20 && fills.length >= 5) {
    for (const o of meds.filter((m) => /fluticasone/i.test(JSON.stringify(m.medicationCodeableConcept)))) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'step up' } });
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Wixela Inhub 250/50 (fluticasone/salmeterol)' }, dosageInstruction: [{ text: '1 inhalation twice daily' }] });
    plan = 'Not well controlled: start Wixela 250/50 one inhalation twice daily; albuterol as needed.';
  }
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`ACT ${score}. Current lung function: FEV1 ${fev1}% predicted. ${plan}`).toString('base64') } }] });
  await submit(plan);
}
