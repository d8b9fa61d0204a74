// Reference solution: problem list, osteoporosis treatment and how long it has run, every DXA record (reports and
// procedures), calcium, vitamin D and kidney function, visits; a DXA under a year old is not repeated (next one 2 years
// after it); after 5+ years of treatment with the last DXA 2+ years old a DXA is ordered to reassess for a drug
// holiday (BHOF 2022, ISCD 2023, ACP 2017/2023, ASBMR 2016). A note with the result and the decision either way.
import type { DiagnosticReport, MedicationRequest, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, conceptIs } from '../../../graders/lib/index.ts';
import { DXA_RECORD, INTERVALS, OSTEOPOROSIS_THERAPY, RXNORM } from './facts.ts';

const isDxa = (concept: { coding?: { system?: string; code?: string }[] } | undefined) =>
  (concept?.coding ?? []).some((c) => DXA_RECORD.some((s) => s.system === c.system && s.codes.includes(c.code ?? '')));
const isTreatment = (o: MedicationRequest) => conceptIs(o.medicationCodeableConcept, OSTEOPOROSIS_THERAPY);

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient });
  const reports = (await fhir.search<DiagnosticReport>('DiagnosticReport', { patient })).filter((r) => isDxa(r.code));
  const procedures = (await fhir.search<Procedure>('Procedure', { patient })).filter((x) => isDxa(x.code) && x.status === 'completed');
  await fhir.search('ServiceRequest', { patient });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|17861-6', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|1989-3,http://loinc.org|14635-7', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3,http://loinc.org|62238-1', _sort: '-date', _count: 3 });
  await fhir.search('CarePlan', { patient, status: 'active' });

  const treatment = meds.filter(isTreatment);
  const active = treatment.filter((o) => o.status === 'active');
  for (const o of active) await fhir.read('MedicationRequest', o.id!);
  const since = treatment.map((o) => (o.authoredOn ?? '').slice(0, 10)).filter(Boolean).sort()[0];
  const records = [
    ...reports.map((r) => ({ id: `DiagnosticReport/${r.id}`, when: r.effectiveDateTime ?? r.issued ?? '', text: r.conclusion ?? '' })),
    ...procedures.map((x) => ({ id: `Procedure/${x.id}`, when: x.performedDateTime ?? '', text: (x.note ?? []).map((n) => n.text).join(' ') })),
  ].filter((r) => r.when).sort((a, b) => Date.parse(b.when) - Date.parse(a.when));
  const last = records[0];
  await fhir.read(last.id.split('/')[0], last.id.split('/')[1]);
  const sameDay = records.filter((r) => r.when.slice(0, 10) === last.when.slice(0, 10)).map((r) => r.text).join(' ');
  const lumbar = /spine[^.;]*?T-score\s*(-?\d+(?:\.\d+)?)/i.exec(sameDay)?.[1];
  const femoral = /femoral neck[^.;]*?T-score\s*(-?\d+(?:\.\d+)?)/i.exec(sameDay)?.[1];
  const lastDate = last.when.slice(0, 10);
  const months = (Date.parse(now) - Date.parse(last.when)) / (30.44 * 86_400_000);
  const years = since ? (Date.parse(now) - Date.parse(since)) / (365.25 * 86_400_000) : 0;
  const due = months >= INTERVALS.dueFromMonths && years >= INTERVALS.treatmentYearsForReassessment;
  const nextDue = due ? now.slice(0, 10) : new Date(Date.parse(last.when) + 730 * 86_400_000).toISOString().slice(0, 10);

  if (due) {
    await fhir.create<ServiceRequest>({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }],
      code: { coding: [{ system: 'http://snomed.info/sct', code: '312681000', display: 'Bone density scan' }], text: 'DXA bone density, hip and lumbar spine' },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      reasonCode: [{ text: `Osteoporosis on treatment since ${since} (${years.toFixed(1)} years); last DXA ${lastDate}: reassess for drug holiday` }],
    });
  }
  const decision = due
    ? `Treatment for ${years.toFixed(1)} years and the last DXA is more than 2 years old: a repeat DXA is due now to reassess fracture risk and a drug holiday. Repeat DXA ordered.`
    : `The last DXA is less than a year old and cannot show a change beyond the least significant change: no repeat DXA now. Next DXA due ${nextDue}. Meanwhile: adherence and dosing technique, calcium and vitamin D, fall prevention.`;
  const text = [
    'BONE HEALTH E-CONSULT NOTE',
    `Osteoporosis on treatment since ${since}.`,
    `Last DXA ${lastDate}: lumbar spine T-score ${lumbar ?? 'n/a'}, femoral neck T-score ${femoral ?? 'n/a'}.`,
    decision,
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Bone health e-consult: repeat DXA', title: 'Bone health e-consult', text }));
  await finish(JSON.stringify({ orderDxa: due, lastDxa: lastDate, nextDue }));
}
