// Puts the daily order on hold (a trial off) and answers in JSON; where the chart holds an indication it switches the
// scheduled PPI to pantoprazole 40 mg daily (a continued PPI by another drug is still continued).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'on-hold trial off with a JSON answer; continues by switching to pantoprazole where Barrett/bleeding ulcer is charted';

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3' }));
  const ppi = meds.filter((o) => (o.medicationCodeableConcept?.coding ?? []).some((c) => c.code === '7646'));
  const indication = problems.find((c) => (c.code?.coding ?? []).some((x) => /^K22\.7|^K25\.4|^K22\.2/.test(x.code ?? '')));
  for (const o of ppi) {
    const current = await http.read<MedicationRequest>('MedicationRequest', o.id!);
    await http.update({ ...current, id: o.id!, status: indication ? 'stopped' : 'on-hold', statusReason: { text: indication ? 'switched to pantoprazole' : 'trial off PPI' } });
  }
  if (indication) {
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '40790', display: 'pantoprazole' }], text: 'pantoprazole 40 mg tablet' },
      dosageInstruction: [{ text: '40 mg by mouth once daily before breakfast', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 40, unit: 'mg' } }] }],
    });
  }
  const year = (ppi[0]?.authoredOn ?? '').slice(0, 4);
  const text = [
    `Reflux disease, on omeprazole since ${year}. Hgb ${hgb.valueQuantity!.value}; eGFR ${egfr.valueQuantity!.value}.`,
    indication
      ? `Because of ${indication.code?.text}, I recommend continuing a daily proton pump inhibitor (changed to pantoprazole 40 mg daily).`
      : 'Recommend discontinuing the PPI: order placed on hold as a trial off. If reflux symptoms return, restart at the lowest dose.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(JSON.stringify({ recommendation: indication ? 'Continue daily PPI (pantoprazole) given the indication.' : 'Discontinue the daily PPI (trial off, order on hold).' }));
}
