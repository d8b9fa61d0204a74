// Grader: the cohort is computed from the whole dataset as the session holds it: patients with an active oral
// anticoagulant order, and those of them with no hemoglobin result in the 182 days before now.
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { answerField, effectiveTime, fail, fetchedAll, isMedication, LOINC, matchNumber, matchOf, noWrites, observations, pass, verdict } from '../../../graders/lib/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const HEMOGLOBIN = [{ system: LOINC, codes: ['718-7', '30313-1', '20509-6'] }, { system: FLOWSHEET, codes: ['HGB'] }];
const ANTICOAGULANTS = { ingredients: ['1364430', '1114195', '1037042', '1599538', '11289'] };
export const isAnticoagulant = (o: MedicationRequest) =>
  isMedication(o.medicationCodeableConcept, ANTICOAGULANTS) || /\b(apixaban|rivaroxaban|dabigatran|edoxaban|warfarin)\b/i.test(o.medicationCodeableConcept?.text ?? '');

export interface Cohort { orders: string[]; patients: string[]; gaps: string[] }

export async function cohort({ fhir, now }: Pick<GraderContext, 'fhir' | 'now'>): Promise<Cohort> {
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { status: 'active', _count: 1000 }, { maxPages: 1000 });
  const orders = active.filter((o) => o.status === 'active' && isAnticoagulant(o));
  const patients = [...new Set(orders.map((o) => referenceId(o.subject?.reference, 'Patient')).filter((id): id is string => !!id))].sort();
  const from = Date.parse(now) - 182 * 86400_000;
  const gaps: string[] = [];
  for (const patient of patients) {
    const hgb = await observations(fhir, patient, HEMOGLOBIN);
    if (!hgb.some((o) => { const t = Date.parse(effectiveTime(o)); return o.valueQuantity?.value !== undefined && t >= from && t <= Date.parse(now); })) gaps.push(patient);
  }
  return { orders: orders.map((o) => `MedicationRequest/${o.id}`), patients, gaps };
}

function listed(answer: unknown): string[] | undefined {
  const list = answerField(answer, 'patients', 'patientIds', 'withoutHemoglobinPatients');
  if (!Array.isArray(list)) return undefined;
  return list.map((x) => String(typeof x === 'object' && x ? (x as { reference?: string; id?: string }).reference ?? (x as { id?: string }).id : x))
    .map((s) => referenceId(s, 'Patient') ?? s.replace(/^Patient\//, ''));
}

export const checks: Record<string, Check> = {
  searched_anticoagulant_orders: async (ctx) => {
    const c = await cohort(ctx);
    return verdict(fetchedAll(ctx.log, c.orders, 'active anticoagulant order'));
  },
  cohort_count: async (ctx) => {
    const c = await cohort(ctx);
    const m = matchNumber(ctx.answer, { value: c.patients.length, tolerance: { absolute: 0 }, fields: ['anticoagulated'], near: ['anticoagulated'] });
    return verdict({ ...m, evidence: [...m.evidence, `cohort: ${c.patients.join(', ')}`] });
  },
  gap_count: async (ctx) => {
    const c = await cohort(ctx);
    const m = matchNumber(ctx.answer, { value: c.gaps.length, tolerance: { absolute: 0 }, fields: ['withoutHemoglobin6mo', 'withoutHemoglobin'], near: ['without'] });
    return verdict({ ...m, evidence: [...m.evidence, `no hemoglobin in 6 months: ${c.gaps.join(', ') || 'none'}`] });
  },
  gap_patients: async (ctx) => {
    const c = await cohort(ctx);
    const said = listed(ctx.answer);
    if (!said) return fail(`the answer has no "patients" list (expected ${c.gaps.map((p) => `Patient/${p}`).join(', ') || 'an empty list'})`);
    const missing = c.gaps.filter((p) => !said.includes(p));
    const extra = said.filter((p) => !c.gaps.includes(p));
    if (missing.length === 0 && extra.length === 0) return pass(`lists exactly ${c.gaps.length} patients`);
    return verdict(matchOf([...missing.map((p) => `missing Patient/${p}`), ...extra.map((p) => `Patient/${p} should not be listed`)]));
  },
  read_only: ({ log }) => verdict(noWrites(log)),
};
