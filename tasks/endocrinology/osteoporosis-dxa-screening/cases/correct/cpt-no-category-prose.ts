// Looks for a prior DXA among reports and procedures, decides (65+ and none on file: due; one within 2 years: not),
// orders by CPT 77080 without a category with an ICD-10 reason, and answers in prose with a US date.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { DiagnosticReport, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'CPT 77080 order without category, ICD-10 Z13.820 reason, prose answer with US date';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient });
  await http.search('MedicationRequest', { patient });
  const reports = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, code: 'http://loinc.org|38269-7' })).map((r) => r.effectiveDateTime!);
  const procs = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|312681000' })).map((x) => x.performedDateTime!);
  const last = [...reports, ...procs].filter(Boolean).sort().at(-1);
  const age = (Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * 86_400_000);
  const due = age >= 65 && (!last || Date.parse(now) - Date.parse(last) > 2 * 365 * 86_400_000);
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '77080', display: 'DXA bone density study, axial skeleton' }] },
      reasonCode: [{ coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'Z13.820', display: 'Encounter for screening for osteoporosis' }] }],
    });
  }
  const us = last ? `${last.slice(5, 7)}/${last.slice(8, 10)}/${last.slice(0, 4)}` : '';
  const line = due ? 'No prior DXA on file. Screening DXA is due; ordered (CPT 77080).' : `Last DXA ${us}. Not due yet, so no DXA ordered.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Osteoporosis screening. ${line}`).toString('base64') } }],
  });
  await submit(line);
}
