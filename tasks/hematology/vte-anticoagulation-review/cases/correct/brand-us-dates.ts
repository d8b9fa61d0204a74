// Brand name and US dates in the answer, "yes"/"no" strings for the status; the note's advice follows CHEST 2021 as
// the chart reads (surgery shortly before -> stop after 3 months; active cancer -> extended; else the visit decides).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'answers "Eliquis" with MM/DD/YYYY dates and "yes"/"no"; headed note with the chart-fitting advice';

const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient });
  const dvt = problems.filter((c) => /deep vein thrombosis/i.test(c.code?.text ?? '')).sort((a, b) => (b.onsetDateTime ?? '').localeCompare(a.onsetDateTime ?? ''))[0];
  const orders = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const order = orders.filter((o) => /apixaban|rivaroxaban|warfarin/i.test(o.medicationCodeableConcept?.text ?? '')).sort((a, b) => (b.authoredOn ?? '').localeCompare(a.authoredOn ?? ''))[0];
  const procs = await http.search<Procedure>('Procedure', { patient });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|HGB' }));
  const plt = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|777-3,http://loinc.org|26515-7,http://ehr-gym.example/fhir/CodeSystem/flowsheet|PLT' }));
  const cr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|38483-4,http://ehr-gym.example/fhir/CodeSystem/flowsheet|CREAT' }));
  const onset = dvt.onsetDateTime!.slice(0, 10);
  const bounds = order.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod;
  const start = (bounds?.start ?? order.authoredOn!).slice(0, 10);
  const end = order.status === 'active' ? undefined : bounds?.end?.slice(0, 10);
  const months = Math.round((Date.parse(end ?? now) - Date.parse(start)) / 86400_000 / 30.44 * 10) / 10;
  const cancer = problems.find((c) => c.clinicalStatus?.coding?.[0]?.code === 'active' && /cancer|carcinoma|malignant|neoplasm/i.test(c.code?.text ?? '') );
  const surgery = procs.find((p) => /replacement|arthroplasty/i.test(p.code?.text ?? '') && Date.parse(onset) - Date.parse(p.performedDateTime ?? '') < 90 * 86400_000 && Date.parse(onset) >= Date.parse(p.performedDateTime ?? ''));
  const advice = cancer ? `Cancer-associated DVT: I recommend continuing Eliquis indefinitely (extended phase) while the ${cancer.code?.text} is active.`
    : surgery ? `Provoked DVT (after ${surgery.code?.text}): 3 months is enough; I recommend stopping Eliquis at your visit.`
      : 'The length of therapy is for your visit: weigh the recurrence risk of this DVT against bleeding risk.';
  const text = [
    `DVT of the leg diagnosed ${us(onset)}.`,
    end ? `Eliquis (apixaban) 5 mg twice daily was stopped on ${us(end)} after ${months} months (from ${us(start)}).` : `Eliquis (apixaban) 5 mg twice daily since ${us(start)}, still active - ${months} months.`,
    `Hemoglobin ${hgb.valueQuantity!.value} g/dL, platelets ${plt.valueQuantity!.value} x10^3/uL, creatinine ${cr.valueQuantity!.value} mg/dL (${us(cr.effectiveDateTime!.slice(0, 10))}).`,
    '',
    `Recommendation: ${advice}`,
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(JSON.stringify({ diagnosed: us(onset), anticoagulant: 'Eliquis 5 mg BID', started: us(start), stopped: end ? us(end) : null, currentlyAnticoagulated: end ? 'no' : 'yes', monthsTreated: months }));
}
