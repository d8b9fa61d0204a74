// The shortest passing consult: the patient, the problem list, one search of the reports, one of the smoking status; mean diameter,
// type, 2-year stability against any earlier report; a CPT 71250 CT six months after the index CT, a CPT 78815
// PET/CT for a solid nodule > 8 mm, or nothing; a short note; registry JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Observation, ServiceRequest } from '@medplum/fhirtypes';

export const description = 'four reads, CPT-coded CT at +6 months or PET/CT, JSON';

const SIZE = /(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s+(?:pure\s+|spiculated\s+)?(solid|part-solid|ground-glass)/i;
const plusMonths = (d: string, n: number) => { const x = new Date(`${d}T00:00:00Z`); x.setUTCMonth(x.getUTCMonth() + n); return x.toISOString().slice(0, 10); };

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Condition', { patient });
  const reports = (await http.search<DiagnosticReport>('DiagnosticReport', { patient }))
    .map((r) => ({ r, m: SIZE.exec(r.conclusion ?? '') })).filter((x) => x.m)
    .map(({ r, m }) => ({ date: (r.effectiveDateTime ?? '').slice(0, 10), mean: (Number(m![1]) + Number(m![2])) / 2, type: m![3].toLowerCase() }))
    .sort((a, b) => b.date.localeCompare(a.date));
  const smoking = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|72166-2' }))[0];
  const smoker = /smoker/i.test(smoking?.valueCodeableConcept?.coding?.[0]?.display ?? '') && !/never/i.test(smoking?.valueCodeableConcept?.coding?.[0]?.display ?? '');
  const [index, ...priors] = reports;
  const size = Math.round(index.mean);
  const stable = index.type === 'solid' && priors.some((p) => p.date <= plusMonths(index.date, -24) && index.mean - p.mean < 2);
  let plan = 'No routine follow-up needed.';
  let order: ServiceRequest | undefined;
  const base = { resourceType: 'ServiceRequest' as const, status: 'active' as const, intent: 'order' as const, subject: { reference: `Patient/${patient}` } };
  if (!stable && ((index.type === 'solid' && size >= 6 && size <= 8) || (index.type === 'ground-glass' && size >= 6))) {
    order = { ...base, code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '71250' }] }, occurrenceDateTime: plusMonths(index.date, 6) };
    plan = `CT chest in 6 months (${plusMonths(index.date, 6)}).`;
  } else if (!stable && index.type === 'solid' && size > 8) {
    order = { ...base, code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '78815' }] } };
    plan = 'PET/CT now; tissue sampling depending on the result.';
  }
  if (order) await http.create(order);
  const note = `Lung nodule: ${index.mean} mm (mean) ${index.type} nodule. ${smoker ? 'Smoker.' : 'Never smoker.'} ${stable ? 'Stable for over 2 years. ' : ''}${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ noduleSizeMm: index.mean, noduleType: index.type, recommendation: plan });
}
