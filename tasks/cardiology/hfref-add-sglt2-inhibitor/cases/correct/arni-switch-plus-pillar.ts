// Also replaces an ACE inhibitor with sacubitril/valsartan where potassium allows (2022 AHA/ACC/HFSA 7.3.1, class 1:
// ARNI in place of ACEi; the ACE inhibitor stopped, Entresto from 36 hours later), besides starting the missing
// pillar: Jardiance written as text only, or spironolactone 25 mg SCD.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'switches lisinopril to Entresto 24/26 BID (ACEi stopped), text-only Jardiance 10 mg / spironolactone 25 mg SCD';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` })).valueQuantity!.value!;
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` })).valueQuantity!.value!;
  const has = (re: RegExp) => meds.some((o) => re.test(text(o)));
  const missing: string[] = [];
  const ordered: string[] = [];
  const ace = meds.find((o) => /\b(lisinopril|enalapril|ramipril|benazepril|captopril)\b/i.test(text(o)));
  if (ace && k < 5.0 && egfr >= 30) {
    await http.update({ ...ace, id: ace.id!, status: 'stopped', statusReason: { text: 'Switching to sacubitril/valsartan (36-hour washout)' } });
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: RX, code: '1656340', display: 'sacubitril 24 MG / valsartan 26 MG Oral Tablet' }], text: 'Entresto 24-26 mg' },
      dosageInstruction: [{ text: '1 tablet by mouth twice daily, first dose at least 36 hours after the last ACE inhibitor dose', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } } }],
    });
    ordered.push('sacubitril/valsartan 24/26 mg BID in place of the ACE inhibitor');
  }
  if (!has(/gliflozin|farxiga|jardiance/i)) {
    missing.push('SGLT2i');
    if (egfr >= 20) {
      await http.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { text: 'Jardiance 10mg tab' }, dosageInstruction: [{ text: '10 mg PO once daily' }],
      });
      ordered.push('Jardiance 10 mg daily');
    }
  }
  if (!has(/spironolactone|eplerenone|finerenone/i)) {
    missing.push('mineralocorticoid receptor antagonist');
    if (egfr > 30 && k < 5.0) {
      await http.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { coding: [{ system: RX, code: '313096', display: 'spironolactone 25 MG Oral Tablet' }] },
        dosageInstruction: [{ text: '25 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 25, unit: 'mg' } }] }],
      });
      ordered.push('spironolactone 25 mg daily');
    }
  }
  await submit(JSON.stringify({ missing, ordered: ordered.join('; ') || 'none', egfr, potassium: k }));
}
