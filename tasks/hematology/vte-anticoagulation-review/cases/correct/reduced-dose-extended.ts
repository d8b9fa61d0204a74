// CHEST 2021's other extended-phase path: reduced-dose apixaban (2.5 mg twice daily) after the treatment phase, for
// an unprovoked or cancer-associated DVT; still stop after a surgery-provoked one. The note has no headings and its
// history says the order "was stopped" (a report, not advice). A Communication to the requester is also sent.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'suggests extended reduced-dose apixaban 2.5 mg BID (stop after surgery-provoked DVT); unheaded note; also messages the requester';

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient, category: 'problem-list-item' });
  const dvt = problems.filter((c) => (c.code?.coding ?? []).some((x) => x.code === '128053003')).sort((a, b) => (b.onsetDateTime ?? '').localeCompare(a.onsetDateTime ?? ''))[0];
  const orders = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const order = orders.find((o) => o.reasonReference?.some((r) => r.reference === `Condition/${dvt.id}`))
    ?? orders.find((o) => /apixaban/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  const procs = await http.search<Procedure>('Procedure', { patient });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|HGB' }));
  const plt = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|777-3,http://loinc.org|26515-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|PLT' }));
  const cr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|38483-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|CREAT' }));
  const onset = dvt.onsetDateTime!.slice(0, 10);
  const bounds = order.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod;
  const start = (bounds?.start ?? order.authoredOn!).slice(0, 10);
  const end = order.status === 'active' ? undefined : bounds?.end?.slice(0, 10);
  const months = (Date.parse(end ?? now) - Date.parse(start)) / 86400_000 / 30.44;
  const surgery = procs.find((p) => (p.code?.coding ?? []).some((c) => ['609588000', '52734007'].includes(c.code ?? ''))
    && Date.parse(onset) - Date.parse(p.performedDateTime ?? '') < 90 * 86400_000);
  const advice = surgery ? 'As the DVT followed knee or hip replacement, I would stop apixaban now that 3 months are done.'
    : 'I suggest extended-phase apixaban at the reduced dose of 2.5 mg twice daily if bleeding risk is acceptable.';
  const text = `Leg DVT diagnosed ${onset}. ${end ? `Apixaban 5 mg twice daily was stopped on ${end} (started ${start})` : `Apixaban 5 mg twice daily started ${start} and is still active`} (${months.toFixed(1)} months). `
    + `Latest hemoglobin ${hgb.valueQuantity!.value} g/dL, platelets ${plt.valueQuantity!.value} 10*3/uL, creatinine ${cr.valueQuantity!.value} mg/dL. ${advice}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await http.create({ resourceType: 'Communication', status: 'completed', subject: { reference: `Patient/${patient}` }, sent: now, payload: [{ contentString: 'Consult note filed.' }] });
  await submit({ diagnosed: onset, anticoagulant: 'apixaban', started: start, stopped: end ?? null, currentlyAnticoagulated: !end, monthsTreated: `${months.toFixed(1)} months` });
}
