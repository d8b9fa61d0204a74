// SQL on FHIR: the problem list (one row per coding) and every PHQ-9 from two ViewDefinition/$run calls, joined here;
// MDD by SNOMED CT or ICD-10-CM code; counts written as strings.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'ViewDefinition/$run over Condition and Observation, MDD by SNOMED or ICD-10-CM; numbers as strings';

const run = <T>(http: CaseContext['http'], view: unknown) => http.request<T[]>('POST', 'ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }] });
const MDD = (system: string | null, code: string | null) => (system === 'http://snomed.info/sct' && ['370143000', '36923009', '66344007', '832007', '40379007', '18818009', '28475009'].includes(code ?? ''))
  || (system === 'http://hl7.org/fhir/sid/icd-10-cm' && /^F3(2\.[0-59]|3)/.test(code ?? ''));

export default async function ({ http, submit }: CaseContext): Promise<void> {
  const problems = await run<{ patient: string; system: string | null; code: string | null }>(http, {
    resourceType: 'ViewDefinition', name: 'problems', resource: 'Condition', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }] }, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    where: [{ path: "category.coding.where(code = 'problem-list-item').exists()" }, { path: "clinicalStatus.coding.where(code = 'active').exists()" }, { path: "verificationStatus.coding.where(code = 'entered-in-error').empty()" }],
  });
  const scores = await run<{ patient: string; value: number; effective: string }>(http, {
    resourceType: 'ViewDefinition', name: 'phq9', resource: 'Observation', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'value', path: 'value.ofType(Quantity).value', type: 'decimal' }, { name: 'effective', path: 'effective.ofType(dateTime)' }] }],
    where: [{ path: "code.coding.where(system = 'http://loinc.org' and code = '44261-6').exists()" }, { path: "status != 'entered-in-error'" }],
  });
  const cohort = [...new Set(problems.filter((r) => MDD(r.system, r.code)).map((r) => r.patient))];
  const latest = new Map<string, { t: number; value: number }>();
  for (const s of scores) {
    const t = Date.parse(s.effective);
    if (s.value !== null && (!latest.has(s.patient) || t > latest.get(s.patient)!.t)) latest.set(s.patient, { t, value: s.value });
  }
  const patients = cohort.filter((p) => (latest.get(p)?.value ?? -1) >= 10).map((p) => ({ id: p, phq9: String(latest.get(p)!.value) }));
  await submit(JSON.stringify({ cohort: String(cohort.length), count: String(patients.length), patients }));
}
