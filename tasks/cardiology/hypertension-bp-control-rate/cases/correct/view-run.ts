// SQL on FHIR: Patient, Condition (one row per coding) and BP-panel views through ViewDefinition/$run, joined here;
// the rate written as a string with a percent sign, the list as bare ids.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'ViewDefinition/$run views joined client-side; "57.1%" and bare ids';

const run = <T>(http: CaseContext['http'], view: unknown) => http.request<T[]>('POST', 'ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }] });
const age = (birth: string, now: string) => { const [y, m, d] = birth.split('-').map(Number); const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number); return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0); };
const comp = (code: string) => `component.where(code.coding.where(code = '${code}').exists()).value.ofType(Quantity).value.first()`;

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const people = await run<{ id: string; birth: string | null }>(http, { resourceType: 'ViewDefinition', name: 'pt', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }, { name: 'birth', path: 'birthDate' }] }] });
  const dx = await run<{ patient: string; system: string; code: string }>(http, {
    resourceType: 'ViewDefinition', name: 'dx', resource: 'Condition', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }] }, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    where: [{ path: "category.coding.where(code = 'problem-list-item').exists()" }, { path: "clinicalStatus.coding.where(code = 'active').exists()" }],
  });
  const bp = await run<{ patient: string; effective: string; sbp: number | null; dbp: number | null }>(http, {
    resourceType: 'ViewDefinition', name: 'bp', resource: 'Observation', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'effective', path: 'effective.ofType(dateTime)' }, { name: 'sbp', path: comp('8480-6'), type: 'decimal' }, { name: 'dbp', path: comp('8462-4'), type: 'decimal' }] }],
    where: [{ path: "code.coding.where(code = '85354-9' or (system = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet' and code = 'BP')).exists()" }, { path: "status != 'entered-in-error'" }],
  });
  const birth = new Map(people.map((p) => [p.id, p.birth]));
  const htn = new Set(dx.filter((d) => (d.system === 'http://snomed.info/sct' && d.code === '59621000') || (d.system === 'http://hl7.org/fhir/sid/icd-10-cm' && d.code === 'I10')).map((d) => d.patient));
  const cohort = [...htn].filter((p) => { const b = birth.get(p); return !!b && age(b, now) >= 18 && age(b, now) <= 85; });
  const to = Date.parse(now);
  const latest = new Map<string, { t: number; ok: boolean }>();
  for (const r of bp) {
    const t = Date.parse(r.effective);
    if (r.sbp === null || r.dbp === null || t > to || t < to - 365 * 86400_000) continue;
    if (!latest.has(r.patient) || t > latest.get(r.patient)!.t) latest.set(r.patient, { t, ok: r.sbp < 140 && r.dbp < 90 });
  }
  const controlled = cohort.filter((p) => latest.get(p)?.ok);
  await submit({ denominator: cohort.length, controlled: controlled.length, percentControlled: `${(100 * controlled.length / cohort.length).toFixed(1)}%`, uncontrolled: cohort.filter((p) => !latest.get(p)?.ok) });
}
