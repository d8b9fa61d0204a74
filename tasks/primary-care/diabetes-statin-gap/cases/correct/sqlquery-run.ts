// $sqlquery-run: the join and the statin test in SQL over three inline views; ages computed from the birth dates.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = '$sqlquery-run join over Patient, Condition and MedicationRequest views';

const SQL = `
SELECT p.id AS patient, p.birth AS birth,
       MAX(CASE WHEN r.status = 'active' AND (lower(coalesce(r.label, '')) LIKE '%statin%' OR lower(coalesce(r.label, '')) LIKE '%lipitor%'
                 OR lower(coalesce(r.label, '')) LIKE '%crestor%' OR lower(coalesce(r.label, '')) LIKE '%zocor%' OR lower(coalesce(r.label, '')) LIKE '%vytorin%') THEN 1 ELSE 0 END) AS statin
FROM pt p
JOIN (SELECT DISTINCT patient FROM dx WHERE (system = 'http://snomed.info/sct' AND code = '44054006') OR (system = 'http://hl7.org/fhir/sid/icd-10-cm' AND code LIKE 'E11%')) d ON d.patient = p.id
LEFT JOIN rx r ON r.patient = p.id
GROUP BY p.id, p.birth`;

const age = (birth: string, now: string) => { const [y, m, d] = birth.split('-').map(Number); const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number); return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0); };

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const views = [
    { resourceType: 'ViewDefinition', name: 'pt', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }, { name: 'birth', path: 'birthDate' }] }] },
    {
      resourceType: 'ViewDefinition', name: 'dx', resource: 'Condition', status: 'active',
      select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }] }, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
      where: [{ path: "category.coding.where(code = 'problem-list-item').exists()" }, { path: "clinicalStatus.coding.where(code = 'active').exists()" }],
    },
    {
      resourceType: 'ViewDefinition', name: 'rx', resource: 'MedicationRequest', status: 'active',
      select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'status', path: 'status' }, { name: 'label', path: "(medication.ofType(CodeableConcept).text | medication.ofType(CodeableConcept).coding.display).join(' ')" }] }],
    },
  ];
  const rows = await http.request<{ patient: string; birth: string | null; statin: number }[]>('POST', '$sqlquery-run', {
    resourceType: 'Parameters', parameter: [{ name: 'query', valueString: SQL }, ...views.map((v) => ({ name: 'view', resource: v })), { name: '_timeout', valueInteger: 10000 }],
  });
  const eligible = rows.filter((r) => r.birth && age(r.birth, now) >= 40 && age(r.birth, now) <= 75);
  await submit(JSON.stringify({ eligible: eligible.length, onStatin: eligible.filter((r) => r.statin).length, withoutStatin: eligible.filter((r) => !r.statin).map((r) => `Patient/${r.patient}`) }));
}
