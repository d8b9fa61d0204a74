// Starts empagliflozin as the Jardiance 10 mg branded drug (SBD 1545664), orders the UACR by CPT 82043 with text, and
// answers with a JSON boolean beside consistent prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'Jardiance 10 mg SBD 1545664, UACR by CPT 82043, JSON {"sglt2": true|false}';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const day = (o: Observation) => o.effectiveDateTime!.slice(0, 10);
const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = (await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' })).map((c) => c.code?.text ?? '');
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  const uacr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FS}|UACR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const on = meds.find((o) => /gliflozin|jardiance|farxiga|invokana/i.test(text(o)));
  const raas = meds.filter((o) => /pril\b|sartan/i.test(text(o)));
  const ckd = problems.find((p) => /chronic kidney disease/i.test(p)) ?? 'Chronic kidney disease';
  const t1d = problems.some((p) => /type 1 diabetes/i.test(p));
  const e = egfr.valueQuantity!.value!;
  const start = !on && !t1d && e >= 20;
  if (start) {
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545664', display: 'empagliflozin 10 MG Oral Tablet [Jardiance]' }], text: 'Jardiance 10 mg' },
      dosageInstruction: [{ text: '10 mg PO daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }],
    });
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '82043' }], text: 'Urine albumin/creatinine ratio' },
  });
  const decision = on ? `Continue ${on.medicationCodeableConcept?.text} (already on an SGLT2 inhibitor).`
    : t1d ? 'Type 1 diabetes: do not start an SGLT2 inhibitor (ketoacidosis risk).'
      : e < 20 ? 'Do not start an SGLT2 inhibitor; eGFR is below 20.' : 'Started Jardiance (empagliflozin) 10 mg daily.';
  const note = [
    `Problem: ${ckd}.`,
    `Latest eGFR ${e} (${day(egfr)}), UACR ${uacr.valueQuantity!.value} mg/g (${day(uacr)}), K ${k.valueQuantity!.value} mmol/L (${day(k)}).`,
    `Medications: ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}.`,
    decision,
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(JSON.stringify({ sglt2: !!on || start, plan: decision }));
}
