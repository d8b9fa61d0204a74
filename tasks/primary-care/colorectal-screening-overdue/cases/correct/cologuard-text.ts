// A physician who offers the stool DNA test and types it as free text (no code), as many order-entry screens allow;
// decides from the chart with the full set of USPSTF intervals.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Observation, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'orders "Cologuard" as a text-only lab order when due';

const COVERS: { match: RegExp; years: number }[] = [
  { match: /colonoscopy/i, years: 10 },
  { match: /sigmoidoscopy|colonograph/i, years: 5 },
  { match: /DNA/, years: 3 },
  { match: /[Ss]tool|[Oo]ccult|\bFIT\b/, years: 1 },
];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const conditions = await http.search('Condition', { patient });
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const results = await http.search<Observation>('Observation', { patient, category: 'laboratory' });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient });
  const done = [
    ...procedures.filter((p) => p.status === 'completed').map((p) => ({ name: `${p.code?.text ?? ''} ${p.code?.coding?.map((c) => c.display).join(' ')}`, date: p.performedDateTime })),
    ...results.filter((o) => o.status === 'final').map((o) => ({ name: `${o.code?.text ?? ''} ${o.code?.coding?.map((c) => c.display).join(' ')}`, date: o.effectiveDateTime })),
    ...reports.filter((r) => r.status === 'final').map((r) => ({ name: `${r.code?.text ?? ''} ${r.code?.coding?.map((c) => c.display).join(' ')}`, date: r.effectiveDateTime })),
  ];
  const stillCovered = done.some((t) => {
    const rule = COVERS.find((c) => c.match.test(t.name));
    if (!rule || !t.date) return false;
    const until = new Date(t.date);
    until.setUTCFullYear(until.getUTCFullYear() + rule.years);
    return until.getTime() > Date.parse(now);
  });
  const birth = new Date(person.birthDate!);
  const at = new Date(now);
  const age = at.getUTCFullYear() - birth.getUTCFullYear() - (at.getUTCMonth() < birth.getUTCMonth() || (at.getUTCMonth() === birth.getUTCMonth() && at.getUTCDate() < birth.getUTCDate()) ? 1 : 0);
  const notAverageRisk = conditions.some((c) => /malignant neoplasm of colon|crohn|ulcerative colitis/i.test(JSON.stringify((c as { code?: unknown }).code ?? '')));
  const due = age >= 45 && age <= 75 && !notAverageRisk && !stillCovered;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order',
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
      code: { text: 'Cologuard (multitarget stool DNA test)' },
      subject: { reference: `Patient/${patient}` }, authoredOn: now,
    });
  }
  await submit(JSON.stringify({ due, ordered: due ? 'Cologuard' : null }));
}
