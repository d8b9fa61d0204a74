// Dates written "February 19, 2025"; with active cancer it offers LMWH or a DOAC for indefinite therapy (CHEST 2021
// accepts either), after surgery it says "do not extend", otherwise it frames the decision without taking one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'long-form dates; cancer: indefinite anticoagulation with enoxaparin or apixaban; surgery: do not extend; else frames the decision';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const long = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;
const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient });
  const dvt = problems.filter((c) => (c.code?.coding ?? []).some((x) => x.code === '128053003')).sort((a, b) => (b.onsetDateTime ?? '').localeCompare(a.onsetDateTime ?? ''))[0];
  const orders = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const order = orders.find((o) => o.reasonReference?.some((r) => r.reference === `Condition/${dvt.id}`)) ?? orders.find((o) => /apixaban/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  const procs = await http.search<Procedure>('Procedure', { patient });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|HGB' }));
  const plt = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|777-3,http://loinc.org|26515-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|PLT' }));
  const cr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|38483-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|CREAT' }));
  const onset = dvt.onsetDateTime!.slice(0, 10);
  const bounds = order.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod;
  const start = (bounds?.start ?? order.authoredOn!).slice(0, 10);
  const end = order.status === 'active' ? undefined : bounds?.end?.slice(0, 10);
  const months = Math.round((Date.parse(end ?? now) - Date.parse(start)) / 86400_000 / 30.44 * 10) / 10;
  const cancer = problems.find((c) => c.clinicalStatus?.coding?.[0]?.code === 'active' && (c.code?.coding ?? []).some((x) => /^C\d/.test(x.code ?? '')));
  const surgery = procs.find((p) => /knee replacement|hip replacement/i.test(p.code?.text ?? '') && Math.abs(Date.parse(onset) - Date.parse(p.performedDateTime ?? '')) < 90 * 86400_000);
  const plan = cancer ? 'Indefinite anticoagulation is recommended while the cancer is active; enoxaparin or apixaban are both reasonable.'
    : surgery ? 'Do not extend anticoagulation; apixaban should be discontinued at the visit, the provoking surgery is over.'
      : 'Length of therapy: to be settled at the visit once we know whether the DVT was provoked.';
  const text = [
    'Assessment:',
    `Lower-extremity DVT, diagnosed ${long(onset)}.`,
    end ? `Apixaban 5 mg twice daily was stopped on ${long(end)} after ${months} months.` : `Apixaban 5 mg twice daily, ongoing since ${long(start)} (${months} months).`,
    `Most recent labs: hemoglobin ${hgb.valueQuantity!.value} g/dL; platelet count ${plt.valueQuantity!.value} 10*3/uL; creatinine ${cr.valueQuantity!.value} mg/dL.`,
    'Plan:',
    plan,
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(JSON.stringify({ diagnosed: long(onset), anticoagulant: 'apixaban (Eliquis)', started: long(start), stopped: end ? long(end) : null, currentlyAnticoagulated: !end, monthsTreated: months }));
}
