// SQL on FHIR: Patient, Condition (one row per coding) and active MedicationRequest views via ViewDefinition/$run,
// joined here; statins recognised by RxNorm display or text (generic and brand names); ids listed without prefix.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'three ViewDefinition/$run views joined client-side; bare ids';

const run = <T>(http: CaseContext['http'], view: unknown) => http.request<T[]>('POST', 'ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }] });
const STATIN = /statin|lipitor|crestor|zocor|pravachol|lescol|livalo|vytorin|caduet/i;
const age = (birth: string, now: string) => { const [y, m, d] = birth.split('-').map(Number); const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number); return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0); };

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const people = await run<{ id: string; birth: string | null }>(http, { resourceType: 'ViewDefinition', name: 'pt', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }, { name: 'birth', path: 'birthDate' }] }] });
  const dx = await run<{ patient: string; system: string; code: string }>(http, {
    resourceType: 'ViewDefinition', name: 'dx', resource: 'Condition', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }] }, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    where: [{ path: "category.coding.where(code = 'problem-list-item').exists()" }, { path: "clinicalStatus.coding.where(code = 'active').exists()" }],
  });
  const rx = await run<{ patient: string; label: string | null }>(http, {
    resourceType: 'ViewDefinition', name: 'rx', resource: 'MedicationRequest', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'label', path: "(medication.ofType(CodeableConcept).text | medication.ofType(CodeableConcept).coding.display).join(' ')" }] }],
    where: [{ path: "status = 'active'" }],
  });
  const birth = new Map(people.map((p) => [p.id, p.birth]));
  const diabetic = new Set(dx.filter((d) => (d.system === 'http://snomed.info/sct' && d.code === '44054006') || (d.system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^E11/.test(d.code))).map((d) => d.patient));
  const eligible = [...diabetic].filter((p) => { const b = birth.get(p); return !!b && age(b, now) >= 40 && age(b, now) <= 75; });
  const onStatin = new Set(rx.filter((r) => STATIN.test(r.label ?? '')).map((r) => r.patient));
  await submit({ eligible: eligible.length, onStatin: eligible.filter((p) => onStatin.has(p)).length, withoutStatin: eligible.filter((p) => !onStatin.has(p)) });
}
