// A rheumatologist who, above goal, switches to febuxostat 40 mg (brand, text only; allopurinol cancelled) when the
// problem list shows no cardiovascular disease, and otherwise raises allopurinol with colchicine prophylaxis at a
// renally adjusted dose; the recheck is a text-only "Uric acid, serum" order; the answer is JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'above goal: Uloric 40 mg switch without CVD, else allopurinol step + colchicine prophylaxis; JSON answer';

const text = (o: MedicationRequest) => JSON.stringify(o.medicationCodeableConcept ?? {}).toLowerCase();
const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
const CVD = /coronary|myocardial infarction|heart failure|stroke|cerebrovascular|peripheral arter|ischemic heart/i;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const urate = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3084-1' }))!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }))?.valueQuantity?.value ?? 90;
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const allopurinol = meds.filter((o) => text(o).includes('allopurinol'));
  const u = urate.valueQuantity!.value!;
  if (u < 6) {
    await submit(JSON.stringify({ urate: u, atGoal: true, plan: 'continue current allopurinol dose' }));
    return;
  }
  const cvd = problems.some((c) => CVD.test(JSON.stringify(c.code ?? {})));
  const subject = { reference: `Patient/${patient}` };
  let plan: string;
  if (!cvd) {
    for (const o of allopurinol) await http.update({ ...o, id: o.id!, status: 'cancelled', statusReason: { text: 'switched to febuxostat' } });
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Uloric 40 mg tablet' }, dosageInstruction: [{ text: 'Take 1 tablet by mouth once daily' }] });
    plan = 'switched allopurinol to febuxostat 40 mg daily';
  } else {
    const o = allopurinol[0]!;
    const q = o.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
    const strength = Number(/(\d+)\s*mg/i.exec(text(o))?.[1] ?? '100');
    const current = q?.value !== undefined && /mg|milligram/i.test(q.unit ?? '') ? q.value : (q?.value ?? 1) * strength;
    const next = current + (egfr < 30 ? 50 : 100);
    await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'titrated' } });
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: `allopurinol ${next} mg` }, dosageInstruction: [{ text: `${next} mg by mouth once daily` }] });
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Colcrys (colchicine) 0.6 mg tablet' },
      dosageInstruction: [{ text: egfr < 30 ? '0.3 mg by mouth once daily for flare prophylaxis' : '0.6 mg by mouth once daily for flare prophylaxis' }],
    });
    plan = `allopurinol up to ${next} mg daily with colchicine prophylaxis`;
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'Uric acid, serum' } });
  await submit(JSON.stringify({ urate: u, atGoal: false, plan }));
}
