// A pulmonologist who declines by brand when a LAMA is on the list ("already on Spiriva/Anoro") and otherwise starts
// Incruse Ellipta (umeclidinium 62.5 mcg, text only) next to whatever LABA the patient uses.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Procedure } from '@medplum/fhirtypes';

export const description = 'decline naming the brand already taken; else Incruse Ellipta 62.5 mcg daily';

const LAMA = /tiotropium|spiriva|umeclidinium|incruse|anoro|aclidinium|tudorza|glycopyrr|stiolto|trelegy/i;
const BRAND: [RegExp, string][] = [[/anoro|umeclidinium.*vilanterol/i, 'Anoro Ellipta'], [/respimat/i, 'Spiriva Respimat'], [/tiotropium|spiriva/i, 'Spiriva'], [/umeclidinium|incruse/i, 'Incruse']];
const name = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))
    .filter((p) => /FEV1\/FVC/.test(JSON.stringify(p.note ?? []))).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const fev1 = /FEV1\s*(\d+)%/.exec(JSON.stringify(spiro.note))![1];
  const ratio = /FEV1\/FVC\s*([\d.]+)/.exec(JSON.stringify(spiro.note))![1];
  const lama = meds.find((o) => LAMA.test(name(o)));
  const subject = { reference: `Patient/${patient}` };
  let answer: string;
  if (lama) {
    const brand = BRAND.find(([re]) => re.test(name(lama)))?.[1] ?? 'a LAMA';
    answer = `No new order. The patient is already on ${brand} (since ${(lama.authoredOn ?? '').slice(0, 4)}); tiotropium would double up on the LAMA. Please check whether they actually use it and how.`;
  } else {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Incruse Ellipta 62.5 mcg/actuation inhalation powder' }, dosageInstruction: [{ text: '1 inhalation once daily' }] });
    answer = 'Started Incruse Ellipta (umeclidinium) 62.5 mcg one inhalation daily - a LAMA, same class as the tiotropium you suggested.';
  }
  const text = `COPD e-consult\nFEV1 ${fev1}% predicted; FEV1/FVC ${ratio} (${(spiro.performedDateTime ?? '').slice(0, 10)}).\n${answer}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(answer);
}
