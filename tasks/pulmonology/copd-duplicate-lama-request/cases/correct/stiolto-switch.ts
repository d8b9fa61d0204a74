// A pulmonologist who escalates to a single LAMA/LABA inhaler (GOLD 2024): a LAMA alone on the list is switched to
// Stiolto (tiotropium/olodaterol, text only) with the old order stopped; a LABA alone likewise; albuterol alone gets
// Stiolto; a patient already on a LAMA/LABA keeps it. Answer and note name the inhalers by brand.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Procedure } from '@medplum/fhirtypes';

export const description = 'switch to Stiolto (LAMA/LABA, text only) stopping the single long-acting inhaler; keeps an existing LAMA/LABA';

const LAMA = /tiotropium|spiriva|umeclidinium|incruse|anoro|aclidinium|tudorza|glycopyrr|stiolto|trelegy/i;
const LABA = /salmeterol|serevent|formoterol|vilanterol|anoro|olodaterol|arformoterol|indacaterol|stiolto/i;
const name = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`.trim();

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' }))
    .filter((p) => /FEV1\/FVC/.test(JSON.stringify(p.note ?? []))).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const spiroText = (spiro.note ?? []).map((n) => n.text).join(' ');
  const longActing = meds.filter((o) => LAMA.test(name(o)) || LABA.test(name(o)));
  const subject = { reference: `Patient/${patient}` };
  const both = longActing.some((o) => LAMA.test(name(o)) && LABA.test(name(o)));
  let done: string;
  if (both) {
    done = `No change: already on ${longActing.map(name).join(', ')} (LAMA/LABA); tiotropium would add a second LAMA. Check technique and adherence.`;
  } else {
    for (const o of longActing) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'Replaced by Stiolto Respimat (LAMA/LABA)' } });
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now,
      medicationCodeableConcept: { text: 'Stiolto Respimat (tiotropium/olodaterol) 2.5 mcg/2.5 mcg per actuation' },
      dosageInstruction: [{ text: 'Inhale 2 puffs once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } } }],
    });
    done = longActing.length
      ? `Switched ${longActing.map(name).join(', ')} to Stiolto Respimat (tiotropium/olodaterol) 2 puffs daily rather than adding tiotropium on top.`
      : 'Started Stiolto Respimat (tiotropium/olodaterol) 2 puffs daily: LAMA plus LABA per GOLD group B.';
  }
  const text = `Pulm e-consult. COPD with dyspnea on exertion. Spirometry ${(spiro.performedDateTime ?? '').slice(0, 10)}: ${spiroText}. ${done} Continue albuterol as needed.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(done);
}
