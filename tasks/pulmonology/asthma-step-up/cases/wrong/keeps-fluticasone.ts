// Reads everything and decides right, but when stepping up leaves the fluticasone order active beside Symbicort
// (two inhaled corticosteroids); otherwise changes nothing - so only the step-up charts catch it.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationDispense, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'Symbicort added, fluticasone left active';
export const catches = ['controller_decision', 'no_overtreatment'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const act = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|82668-5' })).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const fills = (await http.search<MedicationDispense>('MedicationDispense', { patient })).filter((f) => Date.parse(f.whenHandedOver ?? '') >= Date.parse(now) - 180 * 86_400_000);
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' })).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const score = act.valueQuantity!.value!;
  const subject = { reference: `Patient/${patient}` };
  const fev1 = /FEV1\s*(\d+)%/.exec(JSON.stringify(spiro.note))![1];
  let plan = score >= 20 ? 'Well controlled: continue fluticasone.' : 'Not well controlled, poor adherence: continue fluticasone daily, spacer.';
  if (score < 20 && fills.length >= 5) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Symbicort 160/4.5' }, dosageInstruction: [{ text: '2 puffs twice daily' }] });
    plan = 'Not well controlled: start Symbicort 160/4.5 2 puffs twice daily.';
  }
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`ACT ${score}. FEV1 ${fev1}% predicted. Repeat spirometry is recommended. ${plan}`).toString('base64') } }] });
  await submit(plan);
}
