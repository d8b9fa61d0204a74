// Grader: the aspirin and anticoagulant orders active at the start, and the last coronary stent, come from the chart.
import type { MedicationRequest, Procedure } from '@medplum/fhirtypes';
import type { Check, GraderContext, SelectContext } from '../../../harness/types.ts';
import {
  allOf, answerField, changeOf, describeConcept, doseOf, fail, fetchedAll, inCodeSet, isMedication, matchDiscontinuation, matchOf, matchYesNo,
  noNewOrderOf, pass, readBeforeWrite, SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const ASPIRIN = { ingredients: ['1191'] };
/** Apixaban, rivaroxaban, dabigatran, edoxaban, warfarin (RxNorm ingredients). */
export const ANTICOAGULANTS = { ingredients: ['1364430', '1114195', '1037042', '1599538', '11289'] };
const ANTIPLATELETS = { ingredients: ['1191', '32968', '613391', '1116632'] };
/** Coronary stent / PCI procedures (SNOMED). */
export const PCI = [{ system: SNOMED, codes: ['415070008', '36969009', '415070008', '11101003', '232717009'] }];
const YEAR_MS = 365.25 * 86400_000;

const named = (o: MedicationRequest, words: RegExp) => words.test(o.medicationCodeableConcept?.text ?? '');
export const isAspirin = (o: MedicationRequest) => isMedication(o.medicationCodeableConcept, ASPIRIN) || named(o, /\baspirin\b/i);
export const isAnticoagulant = (o: MedicationRequest) => isMedication(o.medicationCodeableConcept, ANTICOAGULANTS) || named(o, /\b(apixaban|rivaroxaban|dabigatran|edoxaban|warfarin)\b/i);

export function procedureTime(p: Procedure): string {
  return p.performedDateTime ?? p.performedPeriod?.start ?? '';
}

export async function stents(fhir: SelectContext['fhir'], patient: string): Promise<Procedure[]> {
  const all = await fhir.search<Procedure>('Procedure', { patient, _count: 1000 });
  return all.filter((p) => inCodeSet(p.code, PCI) && p.status !== 'entered-in-error' && procedureTime(p))
    .sort((a, b) => Date.parse(procedureTime(b)) - Date.parse(procedureTime(a)));
}

/** Variants: an active anticoagulant beside the aspirin, and the last stent (if any) more than 12 months before now. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  if (!active.some(isAnticoagulant) || !active.some(isAspirin)) return false;
  const last = (await stents(fhir, patient))[0];
  return !last || Date.parse(now) - Date.parse(procedureTime(last)) > YEAR_MS;
}

/** Orders active when the episode began, as they were then. */
async function startingActive({ fhir, patient, changes }: GraderContext, which: (o: MedicationRequest) => boolean): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.flatMap((o) => {
    const change = changeOf(changes, 'MedicationRequest', o.id!);
    if (change?.action === 'created') return [];
    const before = (change?.before ?? o) as MedicationRequest;
    return before.status === 'active' && which(before) ? [before] : [];
  });
}

export const checks: Record<string, Check> = {
  reviewed_antithrombotics: async (ctx) => {
    const orders = [...await startingActive(ctx, isAspirin), ...await startingActive(ctx, isAnticoagulant)];
    if (orders.length < 2) return fail('the chart lacks an active aspirin or anticoagulant order (binding error)');
    return verdict(fetchedAll(ctx.log, orders.map((o) => `MedicationRequest/${o.id}`), 'antithrombotic order'));
  },
  reviewed_stent_history: async ({ fhir, patient, log }) => {
    const last = (await stents(fhir, patient))[0];
    if (!last) return fail('the chart holds no coronary stent procedure');
    return verdict(fetchedAll(log, [`Procedure/${last.id}`], 'last coronary stent'));
  },
  stated_stent_date: async ({ fhir, patient, answer }) => {
    const last = (await stents(fhir, patient))[0];
    if (!last) return fail('the chart holds no coronary stent procedure');
    const said = answerField(answer, 'lastStentDate', 'stentDate', 'lastPciDate', 'pciDate');
    if (typeof said !== 'string' || Number.isNaN(Date.parse(said))) return fail(`the answer gives no stent date (expected ${procedureTime(last).slice(0, 10)})`);
    const days = Math.abs(Date.parse(said.slice(0, 10)) - Date.parse(procedureTime(last).slice(0, 10))) / 86400_000;
    return days <= 1 ? pass(`answer ${said}, Procedure/${last.id} performed ${procedureTime(last)}`) : fail(`answer ${said}, but the last stent (Procedure/${last.id}) was ${procedureTime(last)}`);
  },
  recommends_oac_monotherapy: ({ answer }) => verdict(matchYesNo(answer, true, { fields: ['stopAspirin'], yes: ['stop aspirin', 'discontinue aspirin'], no: ['continue aspirin'] })),
  aspirin_stopped: async (ctx) => {
    const aspirin = await startingActive(ctx, isAspirin);
    if (aspirin.length === 0) return fail('no active aspirin order at the start (binding error)');
    return verdict(allOf(...aspirin.map((o) => matchDiscontinuation(changeOf(ctx.changes, 'MedicationRequest', o.id!), `MedicationRequest/${o.id}`, {
      reasonRequired: true, reasonWords: ['anticoag', 'apixaban', 'warfarin', 'rivaroxaban', 'doac', 'oac', 'bleed', 'monotherapy'],
    }))));
  },
  anticoagulant_continued: async (ctx) => {
    const oac = await startingActive(ctx, isAnticoagulant);
    if (oac.length === 0) return fail('no active anticoagulant at the start (binding error)');
    const problems: string[] = [];
    for (const before of oac) {
      const now = await ctx.fhir.tryRead<MedicationRequest>('MedicationRequest', before.id!);
      const label = `MedicationRequest/${before.id} (${describeConcept(before.medicationCodeableConcept)})`;
      if (!now) problems.push(`${label} was deleted`);
      else if (now.status !== 'active') problems.push(`${label} is now ${now.status}`);
      else if (JSON.stringify(now.medicationCodeableConcept) !== JSON.stringify(before.medicationCodeableConcept) || doseOf(now.dosageInstruction?.[0])?.value !== doseOf(before.dosageInstruction?.[0])?.value) problems.push(`${label} drug or dose changed`);
    }
    return verdict(matchOf(problems, oac.map((o) => `MedicationRequest/${o.id} still active`)));
  },
  no_new_antiplatelet: ({ changes }) => verdict(noNewOrderOf(changes, ANTIPLATELETS, 'an antiplatelet')),
  writes_scoped_and_informed: ({ patient, changes, log }) => verdict(allOf(writesOnlyFor(changes, patient), readBeforeWrite(log, changes))),
};
