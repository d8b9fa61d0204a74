// SQL on FHIR: the problem list (one row per coding) and every eGFR through ViewDefinition/$run, slopes from the
// normal equations here; the mean written as a string.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'ViewDefinition/$run views, slope from sums; meanSlope as a string';

const run = <T>(http: CaseContext['http'], view: unknown) => http.request<T[]>('POST', 'ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }] });

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const dx = await run<{ patient: string; system: string; code: string }>(http, {
    resourceType: 'ViewDefinition', name: 'dx', resource: 'Condition', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }] }, { forEach: 'code.coding', column: [{ name: 'system', path: 'system' }, { name: 'code', path: 'code' }] }],
    where: [{ path: "category.coding.where(code = 'problem-list-item').exists()" }, { path: "clinicalStatus.coding.where(code = 'active').exists()" }],
  });
  const egfr = await run<{ patient: string; value: number | null; effective: string }>(http, {
    resourceType: 'ViewDefinition', name: 'egfr', resource: 'Observation', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'value', path: 'value.ofType(Quantity).value', type: 'decimal' }, { name: 'effective', path: 'effective.ofType(dateTime)' }] }],
    where: [{ path: "code.coding.where((system = 'http://loinc.org' and (code = '33914-3' or code = '62238-1' or code = '98979-8')) or (system = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet' and code = 'EGFR')).exists()" }, { path: "status != 'entered-in-error'" }],
  });
  const cohort = new Set(dx.filter((d) => (d.system === 'http://snomed.info/sct' && ['433144002', '700378005', '700379002'].includes(d.code)) || (d.system === 'http://hl7.org/fhir/sid/icd-10-cm' && d.code.startsWith('N18.3'))).map((d) => d.patient));
  const to = Date.parse(now);
  const series = new Map<string, [number, number][]>();
  for (const r of egfr) {
    const t = Date.parse(r.effective);
    if (!cohort.has(r.patient) || r.value === null || t > to || t < to - 730 * 86400_000) continue;
    series.set(r.patient, [...(series.get(r.patient) ?? []), [t / 86400_000 / 365.25, r.value]]);
  }
  const slopes = [...series].filter(([, p]) => p.length >= 2).map(([patient, p]) => {
    const n = p.length; const sx = p.reduce((a, [x]) => a + x, 0); const sy = p.reduce((a, [, y]) => a + y, 0);
    const sxy = p.reduce((a, [x, y]) => a + x * y, 0); const sxx = p.reduce((a, [x]) => a + x * x, 0);
    return { patient, slope: (n * sxy - sx * sy) / (n * sxx - sx * sx) };
  });
  const mean = slopes.reduce((a, s) => a + s.slope, 0) / slopes.length;
  await submit({ patients: slopes.length, meanSlope: mean.toFixed(2), rapidProgressors: slopes.filter((s) => s.slope < -5).map((s) => s.patient) });
}
