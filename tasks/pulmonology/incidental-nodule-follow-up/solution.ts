// Reference solution: reads the problem list, every radiology report (index and priors, the report text itself),
// smoking status, family history, medications (immunosuppression takes a patient out of Fleischner), prior
// procedures, existing imaging orders and notes; measures the nodule (mean of the axes), checks 2-year stability on
// prior imaging, applies Fleischner 2017 and orders the follow-up CT with its date, or a PET/CT, or nothing; writes
// the note and the registry JSON.
import type { AllergyIntolerance, Condition, DiagnosticReport, DocumentReference, FamilyMemberHistory, MedicationRequest, Observation, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { CPT, FLEISCHNER, LOINC, NODULE_IN_REPORT, SMOKER_CODES, SMOKING_STATUS, SNOMED } from './facts.ts';

const months = (date: string, n: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
};

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<{ resourceType: 'Patient'; birthDate?: string }>('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  // Past cancer (resolved too) takes the patient out of Fleischner: read the whole problem history.
  const history = await fhir.search<Condition>('Condition', { patient });
  const nodule = conditions.find((c) => (c.code?.coding ?? []).some((x) => x.code === 'R91.1'));
  const allergies = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  const studies = await fhir.search('ImagingStudy', { patient });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, _sort: '-date' });
  const radiology = reports.filter((r) => (r.category ?? []).some((c) => (c.coding ?? []).some((x) => x.code === 'RAD')));
  // Read each report in full (the scanned outside CT carries the comparison the index report lacks).
  const read = [];
  for (const r of radiology) read.push(await fhir.read<DiagnosticReport>('DiagnosticReport', r.id!));
  const found = read.map((r) => ({ r, m: NODULE_IN_REPORT.exec(r.conclusion ?? '') })).filter((x) => x.m)
    .map(({ r, m }) => ({ id: r.id!, date: (r.effectiveDateTime ?? r.issued ?? '').slice(0, 10), long: Number(m![1]), short: Number(m![2]), type: m![3].toLowerCase(), exam: r.code?.text ?? 'CT' }))
    .sort((a, b) => b.date.localeCompare(a.date));
  const index = found[0];
  const mean = (index.long + index.short) / 2;
  const size = Math.round(mean);
  const smokingObs = (await fhir.search<Observation>('Observation', { patient, code: `${SMOKING_STATUS.system}|${SMOKING_STATUS.code}`, _sort: '-date' }))[0];
  const family = await fhir.search<FamilyMemberHistory>('FamilyMemberHistory', { patient });
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const procedures = await fhir.search<Procedure>('Procedure', { patient });
  const pending = await fhir.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' });
  const notes = await fhir.search<DocumentReference>('DocumentReference', { patient, _sort: '-date', _count: 5 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 3 });
  // Lung function and kidney function frame a biopsy or a contrast study if one becomes necessary.
  const fev1 = (await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|20150-9`, _sort: '-date', _count: 1 }))[0];
  const egfr = (await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|33914-3,${LOINC}|62238-1,${LOINC}|98979-8`, _sort: '-date', _count: 1 }))[0];

  const smoker = (smokingObs?.valueCodeableConcept?.coding ?? []).some((c) => SMOKER_CODES.includes(c.code ?? ''));
  const familyLungCancer = family.some((f) => /lung (cancer|carcinoma)/i.test(JSON.stringify(f.condition ?? [])));
  const emphysema = conditions.some((c) => /emphysema|chronic obstructive|copd/i.test(`${c.code?.text} ${(c.code?.coding ?? []).map((x) => x.display).join(' ')}`));
  const highRisk = smoker || familyLungCancer;
  const immunosuppressed = meds.some((m) => /tacrolimus|mycophenolate|cyclosporine|azathioprine|prednisone/i.test(JSON.stringify(m.medicationCodeableConcept)));
  const stablePrior = index.type === 'solid' ? found.slice(1).find((p) => p.type === 'solid' && p.date <= months(index.date, -12 * FLEISCHNER.stableYears) && mean - (p.long + p.short) / 2 < FLEISCHNER.growthMm) : undefined;
  const contrastAllergy = allergies.some((a) => /contrast|iodin/i.test(JSON.stringify(a.code ?? {})));
  const cancer = history.find((c) => /cancer|carcinoma|malignan|lymphoma/i.test(`${c.code?.text} ${(c.code?.coding ?? []).map((x) => x.display).join(' ')}`));
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate ?? '')) / 31_557_600_000);
  const priorCt = pending.find((s) => /\bct\b/i.test(s.code?.text ?? ''));

  let plan: string;
  let order: { code: { system: string; code: string; display: string }; text: string; date: string } | undefined;
  if (stablePrior) plan = `Unchanged since ${stablePrior.exam} on ${stablePrior.date} (${stablePrior.long} x ${stablePrior.short} mm): stable for more than 2 years, benign behaviour. No routine follow-up imaging needed.`;
  else if (index.type === 'solid' && size < FLEISCHNER.solid.smallBelowMm) {
    plan = highRisk
      ? 'Solid nodule < 6 mm in a high-risk patient: no routine follow-up needed; an optional CT at 12 months may be considered after discussion with the patient (not ordered).'
      : 'Solid nodule < 6 mm, low risk: no routine follow-up needed.';
  } else if (index.type === 'solid' && size <= FLEISCHNER.solid.largeAboveMm) {
    order = { code: { system: CPT, code: '71250', display: 'CT thorax without contrast' }, text: 'CT chest without contrast (nodule follow-up)', date: months(index.date, 9) };
    plan = `Solid nodule 6-8 mm: CT chest without contrast at 6-12 months (ordered for ${order.date}), then ${highRisk ? 'a CT at 18-24 months' : 'consider a CT at 18-24 months'}.`;
  } else if (index.type === 'solid') {
    order = { code: { system: CPT, code: '78815', display: 'PET with concurrently acquired CT, skull base to mid-thigh' }, text: 'FDG PET/CT (pulmonary nodule > 8 mm)', date: months(now.slice(0, 10), 0) };
    plan = `Solid nodule > 8 mm${/spiculat/i.test(JSON.stringify(read.find((r) => r.id === index.id)?.conclusion ?? '')) ? ', spiculated' : ''}: FDG PET/CT ordered; tissue sampling per the result (pulmonology), CT at 3 months as the alternative.`;
  } else if (size < FLEISCHNER.subsolidThresholdMm) plan = 'Subsolid nodule < 6 mm: no routine follow-up needed.';
  else if (index.type === 'ground-glass') {
    order = { code: { system: CPT, code: '71250', display: 'CT thorax without contrast' }, text: 'CT chest without contrast (ground-glass nodule follow-up)', date: months(index.date, 9) };
    plan = `Ground-glass nodule >= 6 mm: CT chest at 6-12 months to confirm persistence (ordered for ${order.date}), then CT every 2 years until 5 years.`;
  } else {
    order = { code: { system: CPT, code: '71250', display: 'CT thorax without contrast' }, text: 'CT chest without contrast (part-solid nodule follow-up)', date: months(index.date, 4) };
    plan = `Part-solid nodule >= 6 mm: CT chest at 3-6 months (ordered for ${order.date}); then annual CT for 5 years if unchanged.`;
  }
  if (order && !priorCt) {
    await fhir.create<ServiceRequest>({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      category: [{ coding: [{ system: SNOMED, code: '363679005', display: 'Imaging' }] }],
      code: { coding: [order.code], text: order.text }, occurrenceDateTime: `${order.date}T09:00:00Z`,
      reasonCode: [{ text: `Pulmonary nodule ${index.long} x ${index.short} mm ${index.type} on ${index.date} (Fleischner 2017)` }],
      reasonReference: [{ reference: `DiagnosticReport/${index.id}` }, ...(nodule ? [{ reference: `Condition/${nodule.id}` }] : [])],
      ...(contrastAllergy ? { note: [{ text: 'Contrast allergy on file: non-contrast study.' }] } : {}),
    });
  }
  const smokingText = smokingObs ? `${smokingObs.valueCodeableConcept?.coding?.[0]?.display}${smokingObs.note?.[0]?.text ? ` (${smokingObs.note[0].text})` : ''}` : 'not recorded';
  const text = [
    'PULMONARY E-CONSULT: INCIDENTAL PULMONARY NODULE',
    `Index study: ${index.exam} on ${index.date}: ${index.long} x ${index.short} mm ${index.type} nodule; mean diameter ${mean} mm (Fleischner: average of long and short axes).`,
    `Prior imaging: ${found.length > 1 ? found.slice(1).map((p) => `${p.exam} ${p.date}: ${p.long} x ${p.short} mm ${p.type}`).join('; ') : 'none in the chart'}.`,
    `Risk: smoking ${smokingText}${emphysema ? '; emphysema/COPD' : ''}${familyLungCancer ? '; family history of lung cancer' : ''} -> ${highRisk ? 'high' : 'low'} risk. ${immunosuppressed || cancer || age < 35 ? 'NOTE: Fleischner does not apply (immunosuppression, known cancer or age < 35).' : `Age ${age}, not immunosuppressed, no known cancer: Fleischner 2017 applies.`}`,
    `Allergies: ${allergies.length ? allergies.map((a) => a.code?.text ?? a.code?.coding?.[0]?.display).join(', ') : 'none recorded'}; ${studies.length} imaging stud${studies.length === 1 ? 'y' : 'ies'} on file.`,
    `Recommendation: ${plan}`,
    `Lung function: ${fev1 ? `FEV1 ${fev1.valueQuantity?.value} ${fev1.valueQuantity?.unit}` : 'no spirometry on file'}; kidney function: ${egfr ? `eGFR ${egfr.valueQuantity?.value}` : 'no eGFR on file'}.`,
    procedures.length ? `Procedures on file: ${procedures.length}.` : '',
    notes.length ? `Reviewed ${notes.length} prior note(s).` : '',
  ].filter(Boolean).join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Pulmonary nodule e-consult', text }));
  await finish(JSON.stringify({ noduleSizeMm: mean, noduleType: index.type, recommendation: plan }));
}
