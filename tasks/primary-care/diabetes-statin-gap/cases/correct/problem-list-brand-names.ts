// Reads the active problem list, recognises type 2 diabetes by SNOMED CT or any ICD-10-CM E11 code, and each eligible
// patient's active orders; a statin is any order whose name or coding display names a statin or a statin brand.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

export const description = 'problem list + per-patient active orders; statins by generic or brand name; list as {reference}';

const STATIN = /statin|lipitor|crestor|zocor|pravachol|mevacor|altoprev|lescol|livalo|zypitamag|vytorin|roszet|caduet/i;
const age = (birth: string, now: string) => { const [y, m, d] = birth.split('-').map(Number); const [ny, nm, nd] = now.slice(0, 10).split('-').map(Number); return ny - y - (nm < m || (nm === m && nd < d) ? 1 : 0); };

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const problems = await http.search<Condition>('Condition', { category: 'problem-list-item', 'clinical-status': 'active', _count: 500 });
  const dm = problems.filter((c) => (c.code?.coding ?? []).some((x) => (x.system === 'http://snomed.info/sct' && x.code === '44054006') || (x.system === 'http://hl7.org/fhir/sid/icd-10-cm' && x.code?.startsWith('E11'))));
  const ids = [...new Set(dm.map((c) => c.subject!.reference!.split('/')[1]!))];
  const eligible: string[] = [];
  const covered: string[] = [];
  for (const id of ids) {
    const p = await http.read<Patient>('Patient', id);
    const a = p.birthDate ? age(p.birthDate, now) : -1;
    if (a < 40 || a > 75) continue;
    eligible.push(id);
    const orders = await http.search<MedicationRequest>('MedicationRequest', { patient: id, status: 'active' });
    if (orders.some((o) => STATIN.test([o.medicationCodeableConcept?.text, ...(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display)].join(' ')))) covered.push(id);
  }
  await submit({ eligible: eligible.length, onStatin: covered.length, withoutStatin: eligible.filter((p) => !covered.includes(p)).map((p) => ({ reference: `Patient/${p}` })) });
}
