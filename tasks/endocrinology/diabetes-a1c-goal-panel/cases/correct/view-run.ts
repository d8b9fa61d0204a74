// SQL on FHIR: Patient (with general practitioner), Condition (one row per coding) and A1c views through
// ViewDefinition/$run, joined here; the percentage as a string, the worklist as {reference} objects.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'ViewDefinition/$run views joined client-side; "40.0%" and {reference} entries';

const run = <T>(http: CaseContext['http'], view: unknown) => http.request<T[]>('POST', 'ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }] });

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const people = await run<{ id: string; gp: string | null }>(http, { resourceType: 'ViewDefinition', name: 'pt', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }, { name: 'gp', path: 'generalPractitioner.reference.first()' }] }] });
  const dx = await run<{ patient: string; system: string; code: string }>(http, {
    resourceType: 'ViewDefinition', name: 'dx', resource: 'Condition', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }] }, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    where: [{ path: "category.coding.where(code = 'problem-list-item').exists()" }, { path: "clinicalStatus.coding.where(code = 'active').exists()" }],
  });
  const a1c = await run<{ patient: string; value: number | null; effective: string }>(http, {
    resourceType: 'ViewDefinition', name: 'a1c', resource: 'Observation', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'value', path: 'value.ofType(Quantity).value', type: 'decimal' }, { name: 'effective', path: 'effective.ofType(dateTime)' }] }],
    where: [{ path: "code.coding.where((system = 'http://loinc.org' and code = '4548-4') or (system = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet' and code = 'A1C')).exists()" }, { path: "status != 'entered-in-error'" }],
  });
  const mine = new Set(people.filter((p) => p.gp === 'Practitioner/s1-prac-primary-care-1').map((p) => p.id));
  const cohort = [...new Set(dx.filter((d) => (d.system === 'http://snomed.info/sct' && d.code === '44054006') || (d.system === 'http://hl7.org/fhir/sid/icd-10-cm' && d.code.startsWith('E11'))).map((d) => d.patient))].filter((p) => mine.has(p));
  const to = Date.parse(now);
  const latest = new Map<string, { t: number; v: number }>();
  for (const r of a1c) {
    const t = Date.parse(r.effective);
    if (r.value === null || t > to || t < to - 365 * 86400_000) continue;
    if (!latest.has(r.patient) || t > latest.get(r.patient)!.t) latest.set(r.patient, { t, v: r.value });
  }
  const atGoal = cohort.filter((p) => (latest.get(p)?.v ?? 99) < 7).length;
  await submit({ cohort: cohort.length, atGoal, percentAtGoal: `${(100 * atGoal / cohort.length).toFixed(1)}%`, a1c8OrAbove: cohort.filter((p) => (latest.get(p)?.v ?? 0) >= 8).map((p) => ({ reference: `Patient/${p}` })) });
}
