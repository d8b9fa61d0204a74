// Quotes the earlier of the two results that confirm the band; at 30-44 stops the order and starts the 850 mg SCD
// once daily; below 30 completes it; orders a text-only serum creatinine.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'answers with the confirming previous eGFR; 850 mg once daily SCD at 30-44; completed below 30; text-only creatinine';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const egfrs = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|EGFR' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
  const [latest, previous] = [egfrs[0]!.valueQuantity!.value!, egfrs[1]!.valueQuantity!.value!];
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }))
    .filter((o) => /metformin|glucophage|861004/i.test(JSON.stringify(o.medicationCodeableConcept)));
  let daily = 2000;
  if (latest < 45) {
    for (const o of orders) {
      await http.read('MedicationRequest', o.id!);
      await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: latest < 30 ? 'completed' : 'stopped' }]);
    }
    daily = 0;
    if (latest >= 30) {
      await http.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '861010', display: 'metformin hydrochloride 850 MG Oral Tablet' }] },
        dosageInstruction: [{ text: 'one tablet daily with supper', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet', system: 'http://unitsofmeasure.org', code: '{tbl}' } }] }],
      });
      daily = 850;
    }
  } else {
    const q = orders[0]!.dosageInstruction![0].doseAndRate![0].doseQuantity!;
    daily = (q.code === '{tbl}' ? q.value! * 1000 : q.value!) * (orders[0]!.dosageInstruction![0].timing?.repeat?.frequency ?? 2);
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { text: 'Serum creatinine with eGFR in 3 months' },
  });
  await submit({ egfr: previous, dailyDoseMg: daily });
}
