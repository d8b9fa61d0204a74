// The CT-based paths throughout: a text-only "CT chest w/o contrast" at 3 months for the nodule > 8 mm (Fleischner's
// first option), a CT at 12 months for the 6-8 mm solid and ground-glass nodules, US-format dates, rounding the mean
// to whole millimetres in the JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Observation } from '@medplum/fhirtypes';

export const description = 'text-only CT at 3 months for > 8 mm, CT at 12 months for 6-8 mm, US dates, rounded mean';

const SIZE = /(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s+(?:pure\s+|spiculated\s+)?(solid|part-solid|ground-glass)/i;
const plus = (d: string, n: number) => { const x = new Date(`${d}T00:00:00Z`); x.setUTCMonth(x.getUTCMonth() + n); return x; };
const us = (d: Date) => `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;

export default async function ({ http, patient, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  await http.search('Condition', { patient, _count: 100 });
  const reports = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, _sort: '-date' }))
    .map((r) => ({ date: (r.effectiveDateTime ?? '').slice(0, 10), m: SIZE.exec(r.conclusion ?? '') })).filter((x) => x.m);
  await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|72166-2' });
  const smoking = (await http.search<Observation>('Observation', { patient, category: 'social-history' }))[0];
  const smoker = !/never/i.test(smoking?.valueCodeableConcept?.coding?.[0]?.display ?? 'never');
  const index = reports[0];
  const mean = (Number(index.m![1]) + Number(index.m![2])) / 2;
  const size = Math.round(mean);
  const type = index.m![3].toLowerCase();
  const stable = type === 'solid' && reports.slice(1).some((p) => plus(p.date, 24).toISOString().slice(0, 10) <= index.date && mean - (Number(p.m![1]) + Number(p.m![2])) / 2 < 2);
  let months = 0;
  if (!stable && type === 'solid' && size > 8) months = 3;
  else if (!stable && size >= 6) months = 12;
  let plan = stable ? 'No follow-up imaging: stable over 2 years.' : `No routine follow-up${smoker ? ' (optional 12-month CT not needed)' : ''}.`;
  if (months) {
    const when = plus(index.date, months);
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
      code: { text: 'CT chest w/o contrast' }, occurrenceDateTime: when.toISOString().slice(0, 10) });
    plan = `CT chest w/o contrast in ${months} months, on ${us(when)}.`;
  }
  const note = `Incidental nodule: ${size} mm (average diameter), ${type}. ${plan}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ noduleSizeMm: size, noduleType: type, recommendation: plan });
}
