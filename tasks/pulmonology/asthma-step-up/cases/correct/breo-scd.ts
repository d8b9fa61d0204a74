// A clinician who steps up to Breo Ellipta 100/25 by its RxNorm SCD (fluticasone furoate/vilanterol, once daily),
// marks the fluticasone propionate order completed, keeps albuterol, and answers in prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationDispense, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'Breo Ellipta 100/25 SCD; fluticasone completed; prose answer';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const act = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|82668-5' })).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const fills = (await http.search<MedicationDispense>('MedicationDispense', { patient })).filter((f) => Date.parse(f.whenHandedOver ?? '') >= Date.parse(now) - 180 * 86_400_000);
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' })).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const score = act.valueQuantity!.value!;
  const fev1 = /FEV1\s*(\d+)%/.exec(JSON.stringify(spiro.note))![1];
  const old = Date.parse(now) - Date.parse(spiro.performedDateTime!) > 730 * 86_400_000;
  const subject = { reference: `Patient/${patient}` };
  const stepUp = score < 20 && fills.length >= 5;
  let plan: string;
  if (stepUp) {
    for (const o of meds.filter((m) => /fluticasone/i.test(JSON.stringify(m.medicationCodeableConcept)))) await http.update({ ...o, id: o.id!, status: 'completed' });
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1424889', display: '30 ACTUAT fluticasone furoate 0.1 MG/ACTUAT / vilanterol 0.025 MG/ACTUAT Dry Powder Inhaler' }] }, dosageInstruction: [{ text: '1 inhalation once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } } }] });
    plan = 'Asthma is not well controlled (ACT ' + score + ') although the inhaler is filled monthly. Stepping up: start Breo Ellipta 100/25 once daily in place of the fluticasone; keep albuterol for rescue.';
  } else if (score >= 20) {
    plan = `Asthma is well controlled (ACT ${score}). No step-up: continue fluticasone twice daily.`;
  } else {
    plan = `Asthma is not well controlled (ACT ${score}) but the fills show the fluticasone is rarely used and technique was poor. No new medication: continue fluticasone daily with a spacer.`;
  }
  const lung = old ? 'Repeat spirometry is advised; the last one is more than 2 years old.' : `FEV1 ${fev1}% predicted (${spiro.performedDateTime!.slice(0, 10)}).`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${plan}\n${lung}`).toString('base64') } }] });
  await submit(`${plan} ${lung}`);
}
