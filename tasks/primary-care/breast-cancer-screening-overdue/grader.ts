// Grader: the latest mammogram and eligibility (woman 50-74, no breast cancer, nothing in 2 years) come from the
// chart; one imaging order with a mammography code and a note that cites the chart's last mammogram date.
import type { DiagnosticReport, DocumentReference, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { AuditEntry, Check, GraderContext, SelectContext } from '../../../harness/types.ts';
import {
  answerField, createdResources, fetchedAny, findNote, findServiceRequest, inCodeSet, LOINC, matchOf, matchYesNo,
  SERVICE_CATEGORIES, SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const MAMMOGRAM_ORDER = [{ system: SNOMED, codes: ['24623002', '71651007'] }, { system: LOINC, codes: ['24606-6'] }];
const MAMMOGRAPHY = 'http://snomed.info/sct|71651007';
const TWO_YEARS_MS = 730 * 86_400_000;

export interface PriorMammogram { ref: string; when: string; dates: string[] }

/** Every prior mammogram (Procedure and imaging report), newest first, with the dates it may be quoted as. */
export async function priorMammograms(fhir: GraderContext['fhir'], patient: string): Promise<PriorMammogram[]> {
  const procs = await fhir.search<Procedure>('Procedure', { patient, code: MAMMOGRAPHY, _count: 1000 });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, code: MAMMOGRAPHY, _count: 1000 });
  const out: PriorMammogram[] = [
    ...procs.filter((p) => p.status === 'completed' && p.performedDateTime).map((p) => ({ ref: `Procedure/${p.id}`, when: p.performedDateTime! })),
    ...reports.filter((r) => ['final', 'amended', 'corrected'].includes(r.status) && r.effectiveDateTime).map((r) => ({ ref: `DiagnosticReport/${r.id}`, when: r.effectiveDateTime! })),
  ].map((m) => ({ ...m, dates: [...new Set([m.when.slice(0, 10), new Date(m.when).toISOString().slice(0, 10)])] }));
  return out.sort((a, b) => Date.parse(b.when) - Date.parse(a.when));
}

const ageAt = (birthDate: string, now: string): number => (Date.parse(now) - Date.parse(birthDate)) / (365.25 * 86_400_000);

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (p.gender !== 'female' || !p.birthDate || p.deceasedBoolean || p.deceasedDateTime) return false;
  const age = ageAt(p.birthDate, now);
  if (age < 50 || age >= 75) return false;
  const latest = (await priorMammograms(fhir, patient))[0];
  return !latest || Date.parse(now) - Date.parse(latest.when) > TWO_YEARS_MS;
}

const searched = (log: AuditEntry[], type: string) => log.some((e) => e.method === 'GET' && e.status < 300 && (e.path === type || e.path.endsWith(`/${type}`)));

const mammogramOrders = (changes: GraderContext['changes']) => createdResources<ServiceRequest>(changes, 'ServiceRequest')
  .filter((s) => ['active', 'draft', 'on-hold'].includes(s.status) && inCodeSet(s.code, MAMMOGRAM_ORDER));

export const checks: Record<string, Check> = {
  reviewed_mammogram_history: async ({ fhir, patient, log }) => {
    const prior = await priorMammograms(fhir, patient);
    if (prior.length === 0) {
      const any = searched(log, 'Procedure') || searched(log, 'DiagnosticReport') || searched(log, 'ImagingStudy');
      return verdict(matchOf(any ? [] : ['no mammogram on file and no Procedure/DiagnosticReport/ImagingStudy search'], ['no prior mammogram on file; imaging history searched']));
    }
    const newest = prior.filter((m) => m.dates.some((d) => prior[0].dates.includes(d)));
    return verdict(fetchedAny(log, newest.map((m) => m.ref), `latest mammogram (${prior[0].dates[0]})`));
  },
  reviewed_problem_list: ({ log }) => verdict(matchOf(searched(log, 'Condition') ? [] : ['no Condition search before ordering'], ['problem list searched'])),
  due_judgement: async ({ fhir, patient, answer }) => {
    const prior = await priorMammograms(fhir, patient);
    const due = matchYesNo(answer, true, { fields: ['due'], yes: ['due', 'overdue'], no: ['not due', 'up to date'] });
    const last = answerField(answer, 'lastMammogram', 'last_mammogram', 'lastMammo');
    const mismatches = [...due.mismatches];
    if (prior.length === 0) {
      if (!(last === null || (typeof last === 'string' && /none|never|no prior|n\/a/i.test(last)))) mismatches.push(`lastMammogram is ${JSON.stringify(last)}, expected null (none on file)`);
    } else if (!(typeof last === 'string' && prior[0].dates.some((d) => last.includes(d)))) {
      mismatches.push(`lastMammogram is ${JSON.stringify(last)}, expected ${prior[0].dates.join(' or ')} (${prior[0].ref})`);
    }
    return verdict(matchOf(mismatches, [...due.evidence, `lastMammogram ${JSON.stringify(last)}`]));
  },
  mammogram_ordered: ({ changes, patient }) => verdict(findServiceRequest(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, codes: MAMMOGRAM_ORDER, category: [SERVICE_CATEGORIES.imaging], status: ['active'], intent: ['order', 'original-order'],
  })),
  single_mammogram_order: ({ changes }) => {
    const orders = mammogramOrders(changes);
    return verdict(matchOf(orders.length === 1 ? [] : [`${orders.length} mammogram orders: ${orders.map((o) => `ServiceRequest/${o.id}`).join(', ') || 'none'}`], [`${orders.length} mammogram order(s)`]));
  },
  screening_note: async ({ fhir, patient, changes }) => {
    const prior = await priorMammograms(fhir, patient);
    const lastTerms = prior.length > 0 ? prior[0].dates : ['no prior', 'none on file', 'no mammogram on file', 'never had', 'no previous'];
    return verdict(findNote(createdResources<DocumentReference>(changes, 'DocumentReference'), {
      patient, status: ['current'],
      mustMention: [['mammogra'], lastTerms, ['every 2 years', 'biennial', 'every two years', '2 years', 'two years']],
    }));
  },
  writes_scoped: ({ patient, changes }) => verdict(writesOnlyFor(changes, patient)),
};
