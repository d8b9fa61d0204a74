// Counts active statin orders instead of patients (a patient with two orders counts twice).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'onStatin = number of active statin orders, not patients';
export const catches = ['on_statin_count'];

const STATIN = /statin|lipitor|crestor|zocor|vytorin/i;
const age = (birth: string, now: string) => { const [y, m, d] = birth.split('-').map(Number); const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number); return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0); };

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 });
  const ids = [...new Set(problems.filter((c) => (c.code?.coding ?? []).some((x) => x.code === '44054006' || x.code?.startsWith('E11'))).map((c) => c.subject!.reference!.split('/')[1]!))];
  const eligible: string[] = [];
  let orderCount = 0;
  const covered = new Set<string>();
  for (const id of ids) {
    const p = await http.read<Patient>('Patient', id);
    if (!p.birthDate || age(p.birthDate, now) < 40 || age(p.birthDate, now) > 75) continue;
    eligible.push(id);
    const statins = (await http.search<MedicationRequest>('MedicationRequest', { patient: id, status: 'active' }))
      .filter((o) => STATIN.test([o.medicationCodeableConcept?.text, ...(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display)].join(' ')));
    orderCount += statins.length;
    if (statins.length) covered.add(id);
  }
  await submit({ eligible: eligible.length, onStatin: orderCount, withoutStatin: eligible.filter((p) => !covered.has(p)).map((p) => `Patient/${p}`) });
}
