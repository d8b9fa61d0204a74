// Reference solution: age, problem list, prior DXA (reports and procedures), bone-active and bone-harming medications,
// fracture history and kidney function; a woman of 65-84 with no DXA on file is due (USPSTF 2025): order one with the
// indication; one with a DXA in the last 2 years is not. A short note with the last DXA and the decision either way.
import type { DiagnosticReport, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { DXA_RECORD, RECENT_DXA_MONTHS } from './facts.ts';

const isDxa = (concept: { coding?: { system?: string; code?: string }[] } | undefined) =>
  (concept?.coding ?? []).some((c) => DXA_RECORD.some((s) => s.system === c.system && s.codes.includes(c.code ?? '')));

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const p = await fhir.read<Patient>('Patient', patient);
  await fhir.search('Condition', { patient });
  const procedures = await fhir.search<Procedure>('Procedure', { patient });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient });
  await fhir.search('ServiceRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3,http://loinc.org|62238-1', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|39156-5,http://loinc.org|29463-7', _sort: '-date', _count: 4 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|72166-2', _sort: '-date', _count: 1 });

  const dxaDates = [
    ...procedures.filter((x) => isDxa(x.code) && x.status === 'completed').map((x) => ({ id: `Procedure/${x.id}`, when: x.performedDateTime ?? x.performedPeriod?.start })),
    ...reports.filter((r) => isDxa(r.code)).map((r) => ({ id: `DiagnosticReport/${r.id}`, when: r.effectiveDateTime ?? r.issued })),
  ].filter((d): d is { id: string; when: string } => !!d.when).sort((a, b) => b.when.localeCompare(a.when));
  const last = dxaDates[0];
  if (last) await fhir.read(last.id.split('/')[0], last.id.split('/')[1]);
  const months = last ? (Date.parse(now) - Date.parse(last.when)) / (30.44 * 86_400_000) : Infinity;
  const due = months >= RECENT_DXA_MONTHS;
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000));
  const lastDxa = last ? last.when.slice(0, 10) : null;

  if (due) {
    await fhir.create<ServiceRequest>({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }],
      code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000', display: 'Bone density scan' }], text: 'DXA bone density, hip and lumbar spine' },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      reasonCode: [{ coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'Z13.820', display: 'Encounter for screening for osteoporosis' }], text: `Osteoporosis screening: woman aged ${age}, no prior DXA (USPSTF 2025)` }],
    });
  }
  const text = due
    ? `Osteoporosis screening: woman aged ${age}, no DXA bone density on file. Screening is due (USPSTF 2025, women 65+): DXA of hip and lumbar spine ordered.`
    : `Osteoporosis screening: woman aged ${age}. Last DXA bone density ${lastDxa}, less than 2 years ago: not due now, no DXA ordered. Rescreening interval per that result.`;
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Osteoporosis screening', text }));
  await finish(JSON.stringify({ due, lastDxa, ordered: due ? 'DXA bone density scan (hip and lumbar spine)' : null }));
}
