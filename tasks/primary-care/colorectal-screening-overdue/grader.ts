// Grader: eligibility (age 45-75, no colonoscopy, no colorectal cancer) comes from the chart; the order must carry a
// screening code with the category that fits it (USPSTF 2021).
import type { Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import {
  allOf, createdResources, describeConcept, findServiceRequest, LOINC, matchOf, matchYesNo, observations, SERVICE_CATEGORIES, SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';
import type { AuditEntry } from '../../../harness/types.ts';

const COLONOSCOPY = [{ system: SNOMED, codes: ['73761001', '444783004'] }];
const STOOL_TESTS = [{ system: LOINC, codes: ['29771-3', '57905-2', '56490-6', '56491-4', '2335-8', '77353-1', '14563-1', '14564-9'] }];
const ALL_SCREENING = [...COLONOSCOPY, ...STOOL_TESTS];

function ageAt(birthDate: string, now: string): number {
  return (Date.parse(now) - Date.parse(birthDate)) / (365.25 * 86_400_000);
}

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (!p.birthDate || p.deceasedBoolean || p.deceasedDateTime) return false;
  const age = ageAt(p.birthDate, now);
  if (age < 45 || age >= 76) return false;
  const yearAgo = new Date(Date.parse(now) - 365 * 86_400_000).toISOString();
  return (await observations(fhir, patient, STOOL_TESTS)).filter((o) => (o.effectiveDateTime ?? '') >= yearAgo).length === 0;
}

const searched = (log: AuditEntry[], type: string) => log.some((e) => e.method === 'GET' && e.status < 300 && (e.path === type || e.path.endsWith(`/${type}`)));

const screeningOrders = (changes: Parameters<typeof createdResources>[0]) => createdResources<ServiceRequest>(changes, 'ServiceRequest')
  .filter((s) => ['active', 'draft', 'on-hold'].includes(s.status) && ALL_SCREENING.some((set) => s.code?.coding?.some((c) => c.system === set.system && set.codes.includes(c.code ?? ''))));

export const checks: Record<string, Check> = {
  reviewed_screening_history: ({ log }) => verdict(matchOf(
    ['Procedure', 'Condition'].filter((t) => !searched(log, t)).map((t) => `no ${t} search before ordering`),
    [`Procedure searched: ${searched(log, 'Procedure')}, Condition searched: ${searched(log, 'Condition')}`],
  )),
  due_judgement: ({ answer }) => verdict(matchYesNo(answer, true, { fields: ['due'], yes: ['due', 'overdue'], no: ['not due', 'up to date'] })),
  screening_ordered: ({ changes, patient }) => {
    const orders = createdResources<ServiceRequest>(changes, 'ServiceRequest');
    const colonoscopy = findServiceRequest(orders, { patient, codes: COLONOSCOPY, category: [SERVICE_CATEGORIES.procedure], status: ['active'], intent: ['order', 'original-order'] });
    if (colonoscopy.ok) return verdict(colonoscopy);
    const stool = findServiceRequest(orders, { patient, codes: STOOL_TESTS, category: [SERVICE_CATEGORIES.laboratory], status: ['active'], intent: ['order', 'original-order'] });
    return stool.ok ? verdict(stool) : verdict(allOf(colonoscopy, stool));
  },
  single_screening_order: ({ changes }) => {
    const orders = screeningOrders(changes);
    return verdict(matchOf(orders.length === 1 ? [] : [`${orders.length} screening orders: ${orders.map((o) => `ServiceRequest/${o.id} ${describeConcept(o.code)}`).join(', ') || 'none'}`], [`${orders.length} screening order(s)`]));
  },
  writes_scoped: ({ patient, changes }) => verdict(writesOnlyFor(changes, patient)),
};
