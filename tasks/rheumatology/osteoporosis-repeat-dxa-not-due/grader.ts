// Grader: the latest DXA (date, T-scores) and the alendronate order come from the chart; no DXA may be ordered, and
// the answer and note carry the last date and the next due date (last + 2 years).
import type { DiagnosticReport, DocumentReference, MedicationRequest, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext, SelectContext } from '../../../harness/types.ts';
import {
  allOf, answerField, createdResources, describeConcept, fail, fetchedAll, fetchedAny, findNote, inCodeSet, LOINC, matchOf, matchYesNo,
  medicationOrders, SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const DXA = [{ system: SNOMED, codes: ['312681000'] }, { system: LOINC, codes: ['38269-7'] }];
export const ALENDRONATE = { ingredients: ['46041'] };
const TWO_YEARS_MS = 730 * 86_400_000;
const DAY_MS = 86_400_000;

export interface LastDxa { refs: string[]; when: string; dates: string[]; lumbar?: number; femoral?: number }

/** The latest DXA: its report (and procedure of the same day), the dates it may be quoted as, and its T-scores. */
export async function lastDxa(fhir: GraderContext['fhir'], patient: string): Promise<LastDxa | undefined> {
  const reports = (await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7', _count: 1000 }))
    .filter((r) => ['final', 'amended', 'corrected'].includes(r.status) && r.effectiveDateTime)
    .sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!));
  const latest = reports[0];
  if (!latest) return undefined;
  const when = latest.effectiveDateTime!;
  const procs = (await fhir.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|312681000', _count: 1000 }))
    .filter((p) => p.performedDateTime && Math.abs(Date.parse(p.performedDateTime) - Date.parse(when)) < DAY_MS);
  const t = (site: string) => { const m = new RegExp(`${site}\\s*T-score\\s*(-?\\d+(?:\\.\\d+)?)`, 'i').exec(latest.conclusion ?? ''); return m ? Number(m[1]) : undefined; };
  return {
    refs: [`DiagnosticReport/${latest.id}`, ...procs.map((p) => `Procedure/${p.id}`)], when,
    dates: [...new Set([when.slice(0, 10), new Date(when).toISOString().slice(0, 10)])],
    lumbar: t('Lumbar spine'), femoral: t('femoral neck'),
  };
}

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const last = await lastDxa(fhir, patient);
  return !!last && Date.parse(now) - Date.parse(last.when) < TWO_YEARS_MS;
}

const dxaOrders = (changes: GraderContext['changes']) => changes.filter((c) => c.type === 'ServiceRequest' && c.after)
  .map((c) => c.after as ServiceRequest).filter((s) => ['active', 'draft', 'on-hold'].includes(s.status) && inCodeSet(s.code, DXA));

export const checks: Record<string, Check> = {
  reviewed_last_dxa: async ({ fhir, patient, log }) => {
    const last = await lastDxa(fhir, patient);
    if (!last) return fail('no DXA report in the chart (binding error)');
    return verdict(fetchedAny(log, last.refs, `latest DXA (${last.dates[0]})`));
  },
  reviewed_alendronate: async ({ fhir, patient, log, changes }) => {
    const orders = (await medicationOrders(fhir, patient, ALENDRONATE)).filter((o) => {
      const c = changes.find((x) => x.type === 'MedicationRequest' && x.id === o.id);
      return c?.action !== 'created' && ((c?.before as MedicationRequest | undefined) ?? o).status === 'active';
    });
    if (orders.length === 0) return fail('no active alendronate order at the start (binding error)');
    return verdict(fetchedAll(log, orders.map((o) => `MedicationRequest/${o.id}`), 'active alendronate order'));
  },
  not_due_judgement: async ({ fhir, patient, answer }) => {
    const last = await lastDxa(fhir, patient);
    if (!last) return fail('no DXA report in the chart (binding error)');
    const no = matchYesNo(answer, false, { fields: ['orderDxa', 'order'], yes: ['order a repeat', 'ordered'], no: ['not indicated', 'not due', 'do not order', "don't order", 'not ordered'] });
    const given = answerField(answer, 'lastDxa', 'last_dxa', 'lastDXA');
    const dateOk = typeof given === 'string' && last.dates.some((d) => given.includes(d));
    return verdict(matchOf([...no.mismatches, ...(dateOk ? [] : [`lastDxa is ${JSON.stringify(given)}, expected ${last.dates.join(' or ')}`])], [...no.evidence, `lastDxa ${JSON.stringify(given)}`]));
  },
  next_due_date: async ({ fhir, patient, answer }) => {
    const last = await lastDxa(fhir, patient);
    if (!last) return fail('no DXA report in the chart (binding error)');
    const expected = Date.parse(last.when) + TWO_YEARS_MS;
    const given = answerField(answer, 'nextDue', 'next_due', 'nextDxa');
    const at = typeof given === 'string' ? Date.parse(given.slice(0, 10)) : NaN;
    const ok = Number.isFinite(at) && Math.abs(at - expected) <= 31 * DAY_MS;
    return verdict(matchOf(ok ? [] : [`nextDue is ${JSON.stringify(given)}, expected about ${new Date(expected).toISOString().slice(0, 10)} (±31 days)`], [`nextDue ${JSON.stringify(given)}`]));
  },
  no_dxa_order: ({ changes }) => {
    const orders = dxaOrders(changes);
    return verdict(matchOf(orders.map((o) => `ServiceRequest/${o.id} ${describeConcept(o.code)} (${o.status}): a repeat DXA was ordered`), ['no DXA order written']));
  },
  dxa_note: async ({ fhir, patient, changes }) => {
    const last = await lastDxa(fhir, patient);
    if (!last) return fail('no DXA report in the chart (binding error)');
    const nextYear = new Date(Date.parse(last.when) + TWO_YEARS_MS).toISOString().slice(0, 4);
    return verdict(findNote(createdResources<DocumentReference>(changes, 'DocumentReference'), {
      patient, status: ['current'],
      mustMention: [['dxa', 'bone density', 'densitometry'], last.dates, [nextYear]],
      mustQuote: [
        ...(last.lumbar !== undefined ? [{ value: last.lumbar, tolerance: { absolute: 0.005 }, what: 'lumbar spine T-score' }] : []),
        ...(last.femoral !== undefined ? [{ value: last.femoral, tolerance: { absolute: 0.005 }, what: 'femoral neck T-score' }] : []),
      ],
    }));
  },
  writes_scoped: ({ patient, changes }) => {
    const others = changes.filter((c) => !(c.action === 'created' && ['DocumentReference', 'Communication'].includes(c.type)));
    return verdict(allOf(writesOnlyFor(changes, patient), matchOf(others.map((c) => `${c.action} ${c.type}/${c.id}: only a note was expected`))));
  },
};
