// A constant policy: "stop anticoagulation, no further therapy needed" on every chart - right only after a
// surgery-provoked DVT, wrong with active cancer and wherever provocation is unknown.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'recommends stopping anticoagulation on every chart (no extended-phase discussion)';
export const catches = ['extended_phase_direction'];
export const mustFail = 'some';

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient, category: 'problem-list-item' });
  const dvt = problems.filter((c) => (c.code?.coding ?? []).some((x) => x.code === '128053003')).sort((a, b) => (b.onsetDateTime ?? '').localeCompare(a.onsetDateTime ?? ''))[0];
  const orders = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const order = orders.find((o) => o.reasonReference?.some((r) => r.reference === `Condition/${dvt.id}`)) ?? orders.find((o) => /apixaban/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const plt = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|777-3' }));
  const cr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0' }));
  const bounds = order.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod;
  const start = (bounds?.start ?? order.authoredOn!).slice(0, 10);
  const end = order.status === 'active' ? undefined : bounds?.end?.slice(0, 10);
  const months = (Date.parse(end ?? now) - Date.parse(start)) / 86400_000 / 30.44;
  const text = [
    `DVT diagnosed ${dvt.onsetDateTime!.slice(0, 10)}. Apixaban 5 mg twice daily started ${start}${end ? `, stopped ${end}` : ', still active'}.`,
    `Hemoglobin ${hgb.valueQuantity!.value} g/dL, platelets ${plt.valueQuantity!.value} 10*3/uL, creatinine ${cr.valueQuantity!.value} mg/dL.`,
    'Recommendation: stop apixaban; no further anticoagulation is needed.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit({ diagnosed: dvt.onsetDateTime!.slice(0, 10), anticoagulant: 'apixaban', started: start, stopped: end ?? null, currentlyAnticoagulated: !end, monthsTreated: Math.round(months * 10) / 10 });
}
