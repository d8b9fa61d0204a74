// Grader: eligibility (woman 65-84 without a DXA or osteoporosis) comes from the chart; the order must carry a DXA
// code with the imaging category and its indication (USPSTF 2025).
import type { Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { AuditEntry, Check, SelectContext } from '../../../harness/types.ts';
import {
  answerField, answerText, createdResources, describeConcept, findServiceRequest, inCodeSet, LOINC, matchOf, matchYesNo, SERVICE_CATEGORIES, SNOMED,
  verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const DXA = [{ system: SNOMED, codes: ['312681000'] }, { system: LOINC, codes: ['38269-7'] }];

const ageAt = (birthDate: string, now: string): number => (Date.parse(now) - Date.parse(birthDate)) / (365.25 * 86_400_000);

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (p.gender !== 'female' || !p.birthDate || p.deceasedBoolean || p.deceasedDateTime) return false;
  const age = ageAt(p.birthDate, now);
  return age >= 65 && age < 85;
}

const searched = (log: AuditEntry[], type: string) => log.some((e) => e.method === 'GET' && e.status < 300 && (e.path === type || e.path.endsWith(`/${type}`)));

const dxaOrders = (changes: Parameters<typeof createdResources>[0]) => createdResources<ServiceRequest>(changes, 'ServiceRequest')
  .filter((s) => ['active', 'draft', 'on-hold'].includes(s.status) && inCodeSet(s.code, DXA));

export const checks: Record<string, Check> = {
  reviewed_bone_history: ({ log }) => {
    const imaging = searched(log, 'Procedure') || searched(log, 'DiagnosticReport') || searched(log, 'ImagingStudy');
    const problems = searched(log, 'Condition');
    return verdict(matchOf(
      [...(imaging ? [] : ['no Procedure/DiagnosticReport/ImagingStudy search (prior DXA)']), ...(problems ? [] : ['no Condition search (osteoporosis on the problem list)'])],
      [`imaging history searched: ${imaging}, problem list searched: ${problems}`],
    ));
  },
  reviewed_medications: ({ log }) => verdict(matchOf(searched(log, 'MedicationRequest') || searched(log, 'MedicationStatement') ? [] : ['no MedicationRequest/MedicationStatement search'], ['medication list searched'])),
  due_judgement: ({ answer }) => {
    const due = matchYesNo(answer, true, { fields: ['due'], yes: ['due', 'indicated'], no: ['not due', 'not indicated'] });
    const last = answerField(answer, 'lastDxa', 'last_dxa', 'lastDXA');
    const text = answerText(answer).toLowerCase();
    const saysNone = last === null || (typeof last === 'string' && /none|never|no prior|n\/a/i.test(last)) || (last === undefined && /no (prior|previous) (dxa|bone density)|never had/.test(text));
    return verdict(matchOf([...due.mismatches, ...(saysNone ? [] : [`lastDxa is ${JSON.stringify(last)}, expected null (no DXA on file)`])], [...due.evidence, `lastDxa ${JSON.stringify(last)}`]));
  },
  dxa_ordered: ({ changes, patient }) => verdict(findServiceRequest(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, codes: DXA, category: [SERVICE_CATEGORIES.imaging], status: ['active'], intent: ['order', 'original-order'],
  })),
  indication_documented: ({ changes }) => {
    const orders = dxaOrders(changes);
    const stated = orders.filter((o) => {
      const text = [...(o.reasonCode ?? []).flatMap((r) => [r.text, ...(r.coding ?? []).map((c) => c.display)]), ...(o.reasonReference ?? []).map((r) => r.display), ...(o.note ?? []).map((n) => n.text)]
        .filter(Boolean).join(' ').toLowerCase();
      return /osteopor|bone (density|loss|health)|fracture/.test(text) && /screen|uspstf|65/.test(text);
    });
    return verdict(matchOf(orders.length === 0 ? ['no DXA order written'] : stated.length === 0 ? [`DXA order(s) ${orders.map((o) => `ServiceRequest/${o.id}`).join(', ')} state no osteoporosis-screening indication`] : [],
      stated.map((o) => `ServiceRequest/${o.id}: ${(o.reasonCode ?? []).map((r) => r.text ?? describeConcept(r)).join('; ')}`)));
  },
  single_dxa_order: ({ changes }) => {
    const orders = dxaOrders(changes);
    return verdict(matchOf(orders.length === 1 ? [] : [`${orders.length} DXA orders: ${orders.map((o) => `ServiceRequest/${o.id}`).join(', ') || 'none'}`], [`${orders.length} DXA order(s)`]));
  },
  writes_scoped: ({ patient, changes }) => verdict(writesOnlyFor(changes, patient)),
};
