// A clinician who edits the fluticasone order in place into Advair Diskus 250/50 (brand, text) when a step up is due,
// steps the fluticasone down to 1 puff twice daily when the asthma is well controlled (GINA step down), changes
// nothing when adherence is the problem, and recommends PFTs in prose when the spirometry is old.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationDispense, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'step up by editing fluticasone into Advair in place; well controlled: step down to 1 puff BID; PFTs recommended in prose';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const act = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|82668-5' })).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const fills = (await http.search<MedicationDispense>('MedicationDispense', { patient })).filter((f) => Date.parse(f.whenHandedOver ?? '') >= Date.parse(now) - 180 * 86_400_000);
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' })).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const score = act.valueQuantity!.value!;
  const flu = meds.find((m) => /fluticasone/i.test(JSON.stringify(m.medicationCodeableConcept)))!;
  const fev1 = /FEV1\s*(\d+)%/.exec(JSON.stringify(spiro.note))![1];
  const old = Date.parse(now) - Date.parse(spiro.performedDateTime!) > 730 * 86_400_000;
  const subject = { reference: `Patient/${patient}` };
  let plan: string;
  if (score >= 20) {
    await http.update({ ...flu, id: flu.id!, dosageInstruction: [{ text: 'Inhale 1 puff twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'puff' } }] }] });
    plan = 'Well-controlled asthma. Step down: fluticasone 110 mcg 1 puff twice daily; review in 3 months.';
  } else if (fills.length >= 5) {
    await http.update({ ...flu, id: flu.id!, medicationCodeableConcept: { text: 'Advair Diskus 250/50 (fluticasone propionate/salmeterol)' }, dosageInstruction: [{ text: '1 inhalation twice daily', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } } }] });
    plan = 'Poorly controlled despite daily use. Switched to Advair Diskus 250/50 one inhalation twice daily; albuterol as needed.';
  } else {
    plan = 'Poorly controlled, but only occasional use of the fluticasone: no change in medication; adherence plan and spacer.';
  }
  const lung = old ? `Repeat PFTs are recommended (last spirometry ${spiro.performedDateTime!.slice(0, 4)}).` : `FEV1 ${fev1}% predicted on ${spiro.performedDateTime!.slice(0, 10)}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Asthma consult. ACT ${score}. ${lung}\n${plan}`).toString('base64') } }] });
  await submit(`${plan} ${lung}`);
}
