// Starts sotagliflozin 200 mg (SCD 2638683) or spironolactone 12.5 mg written as text only, and answers in prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'sotagliflozin 200 mg SCD / text-only spironolactone 12.5 mg; prose answer';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` })).valueQuantity!.value!;
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` })).valueQuantity!.value!;
  const has = (re: RegExp) => meds.some((o) => re.test(text(o)));
  const lines: string[] = [];
  if (!has(/gliflozin|farxiga|jardiance/i)) {
    if (egfr >= 20) {
      await http.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '2638683', display: 'sotagliflozin 200 MG Oral Tablet' }] },
        dosageInstruction: [{ text: '200 mg by mouth once daily before the first meal', doseAndRate: [{ doseQuantity: { value: 200, unit: 'mg' } }] }],
      });
      lines.push('Missing SGLT2 inhibitor: started sotagliflozin 200 mg daily.');
    } else lines.push(`Missing SGLT2 inhibitor, not started with eGFR ${egfr}.`);
  }
  if (!has(/spironolactone|eplerenone|finerenone/i)) {
    if (egfr > 30 && k < 5.0) {
      await http.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { text: 'spironolactone 12.5 mg' }, dosageInstruction: [{ text: '12.5 mg by mouth daily' }],
      });
      lines.push('Missing MRA: started spironolactone 12.5 mg daily.');
    } else lines.push(`Missing MRA, not started (K ${k}, eGFR ${egfr}).`);
  }
  if (lines.length === 0) lines.push('All four pillars already on board; nothing added.');
  await submit(`${lines.join(' ')} Latest eGFR ${egfr}, K ${k}.`);
}
