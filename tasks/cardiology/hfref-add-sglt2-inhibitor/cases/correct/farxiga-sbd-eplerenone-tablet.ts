// Starts the missing pillar the labs allow (SGLT2 inhibitor at eGFR >= 20; MRA at eGFR > 30 and K < 5.0) with branded
// and clinical-drug codes: Farxiga 10 mg (SBD 1486977) or eplerenone 25 mg (SCD 351256) dosed "1 tablet".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'Farxiga 10 mg SBD / eplerenone 25 mg SCD "1 tablet"; JSON answer';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,http://loinc.org|62238-1,${FS}|EGFR` })).valueQuantity!.value!;
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` })).valueQuantity!.value!;
  const has = (re: RegExp) => meds.some((o) => re.test(text(o)));
  const missing: string[] = [];
  let ordered = 'none';
  if (!has(/gliflozin|farxiga|jardiance/i)) {
    missing.push('SGLT2 inhibitor');
    if (egfr >= 20) {
      await http.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { coding: [{ system: RX, code: '1486977', display: 'dapagliflozin 10 MG Oral Tablet [Farxiga]' }], text: 'Farxiga 10 mg tablet' },
        dosageInstruction: [{ text: '10 mg by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }],
      });
      ordered = 'Farxiga (dapagliflozin) 10 mg once daily';
    }
  }
  if (!has(/spironolactone|eplerenone|finerenone/i)) {
    missing.push('MRA');
    if (egfr > 30 && k < 5.0) {
      await http.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { coding: [{ system: RX, code: '351256', display: 'eplerenone 25 MG Oral Tablet' }] },
        dosageInstruction: [{ text: 'Take 1 tablet by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }],
      });
      ordered = 'eplerenone 25 mg once daily';
    }
  }
  await submit(JSON.stringify({ missing, ordered, egfr, potassium: k }));
}
