// Reference solution: read the patient, problems, allergies, the whole medication history (every hydroxychloroquine
// order by id, so the first one dates the start), patient-reported medications, the weights, the eGFRs, the prior
// screening examinations (each read for its result) and their reports, pending orders and prior notes; compute the
// daily dose per kg of the latest weight, the years of use and the major risk factors with this file's own code; then
// lower an excessive dose (new order, old one stopped), order SD-OCT and fields through ophthalmology when the
// AAO schedule says screening is due, write the note and reply.
import type { Condition, MedicationRequest, Observation, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { BODY_WEIGHT, CKD_3_TO_5, EGFR, HCQ, MACULOPATHY, MAX_MG_PER_KG, RISK, RXNORM, SCREENING, SCREENING_EXAMS, SNOMED } from './facts.ts';

const DAY = 86_400_000;
const YEAR = 365.25 * DAY;
const codeParam = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');
const textOf = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => `${c.code} ${c.display ?? ''}`).join(' ')}`.toLowerCase();
const isHcq = (o: MedicationRequest) => (o.medicationCodeableConcept?.coding ?? []).some((c) => c.system === RXNORM && c.code === HCQ.rxcui) || /hydroxychloroquine|plaquenil/.test(textOf(o));
const PER_DAY: Record<string, number> = { h: 24, d: 1, wk: 1 / 7, mo: 1 / 30 };

/** mg per day of one order: dose quantity (mg) x frequency per period. */
function mgPerDay(o: MedicationRequest): number {
  const d = o.dosageInstruction?.[0];
  const dose = d?.doseAndRate?.[0]?.doseQuantity?.value ?? 0;
  const r = d?.timing?.repeat;
  return dose * ((r?.frequency ?? 1) / (r?.period ?? 1)) * (PER_DAY[r?.periodUnit ?? 'd'] ?? 1);
}
const coded = (c: Condition, sets: { system: string; codes: string[] }[]) => (c.code?.coding ?? []).some((x) => sets.some((s) => s.system === x.system && s.codes.includes(x.code ?? '')));

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = (await fhir.search<Condition>('Condition', { patient })).filter((c) => c.clinicalStatus?.coding?.[0]?.code !== 'resolved');
  await fhir.search('AllergyIntolerance', { patient });
  const history = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 200 });
  const hcqOrders: MedicationRequest[] = [];
  const active: MedicationRequest[] = [];
  for (const listed of history) {
    if (!isHcq(listed) && listed.status !== 'active') continue;
    const o = await fhir.read<MedicationRequest>('MedicationRequest', listed.id!);
    if (isHcq(o)) hcqOrders.push(o);
    if (o.status === 'active') active.push(o);
  }
  const reported = await fhir.search('MedicationStatement', { patient });
  const current = hcqOrders.filter((o) => o.status === 'active');
  if (current.length !== 1) return finish(`Expected one active hydroxychloroquine order, found ${current.length}; please reconcile before a dose review.`);
  const order = current[0];
  const started = Math.min(...hcqOrders.map((o) => Date.parse(o.authoredOn ?? now)));
  const years = (Date.parse(now) - started) / YEAR;

  const latest = async (sets: { system: string; codes: string[] }[]) => (await fhir.search<Observation>('Observation', { patient, code: codeParam(sets), _sort: '-date' }))
    .filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => when(b) - when(a))[0];
  const weight = await latest(BODY_WEIGHT);
  const egfr = await latest(EGFR);
  if (!weight) return finish('No body weight on file: a weight is needed to check the hydroxychloroquine dose (AAO: <= 5 mg/kg real weight).');
  const kg = weight.valueQuantity!.unit === '[lb_av]' || /lb/.test(weight.valueQuantity!.unit ?? '') ? weight.valueQuantity!.value! * 0.45359237 : weight.valueQuantity!.value!;
  const dailyMg = mgPerDay(order);
  const perKg = Math.round((dailyMg / kg) * 100) / 100;
  const limitMg = MAX_MG_PER_KG * kg;
  const overdosed = dailyMg > limitMg + 1e-9;

  const exams = await fhir.search<Procedure>('Procedure', { patient, code: codeParam(SCREENING_EXAMS) });
  const done: Procedure[] = [];
  for (const e of exams.filter((p) => p.status === 'completed')) done.push(await fhir.read<Procedure>('Procedure', e.id!));
  await fhir.search('DiagnosticReport', { patient });
  const lastExam = Math.max(-Infinity, ...done.map((p) => Date.parse(p.performedDateTime ?? p.performedPeriod?.start ?? '')));
  const examFinding = done.map((p) => p.note?.map((n) => n.text).join(' ') ?? '').join(' ');
  const pending = (await fhir.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' }))
    .filter((s) => /ophthalm|retina|oct|visual field/i.test(JSON.stringify(s.code ?? {}) + JSON.stringify(s.performerType ?? {}) + JSON.stringify(s.reasonCode ?? [])));
  await fhir.search('DocumentReference', { patient });

  const risks: string[] = [];
  if (overdosed) risks.push(`daily dose ${perKg} mg/kg above ${MAX_MG_PER_KG} mg/kg`);
  if (egfr && egfr.valueQuantity!.value! < RISK.egfrBelow) risks.push(`eGFR ${egfr.valueQuantity!.value} (< ${RISK.egfrBelow}, renal disease)`);
  else if (conditions.some((c) => coded(c, CKD_3_TO_5))) risks.push('CKD stage 3-5 on the problem list');
  const riskDrugs = active.filter((o) => RISK.drugs.some((d) => textOf(o).includes(d)));
  for (const o of riskDrugs) risks.push(`concomitant ${o.medicationCodeableConcept?.text}`);
  if (reported.some((s) => RISK.drugs.some((d) => JSON.stringify(s).toLowerCase().includes(d)))) risks.push('tamoxifen reported by the patient');
  if (conditions.some((c) => coded(c, MACULOPATHY) || RISK.maculopathyWords.some((w) => (c.code?.text ?? '').toLowerCase().includes(w)))) risks.push('pre-existing macular disease');

  const monthsSinceExam = Number.isFinite(lastExam) ? (Date.parse(now) - lastExam) / (YEAR / 12) : Infinity;
  const annual = years >= SCREENING.annualAfterYears || risks.length > 0;
  const due = pending.length === 0 && (!Number.isFinite(lastExam) || (annual && monthsSinceExam >= SCREENING.intervalMonths));
  const schedule = !Number.isFinite(lastExam) ? 'no baseline examination on file (due within the first year of use)'
    : annual ? `annual screening applies (${years >= SCREENING.annualAfterYears ? `${years.toFixed(1)} years of use` : `major risk factor(s): ${risks.join('; ')}`}); last SD-OCT/fields ${Math.floor(monthsSinceExam)} months ago`
      : `${years.toFixed(1)} years of use without major risk factors: after the baseline exam, annual screening starts at 5 years of use; last SD-OCT/fields ${Math.floor(monthsSinceExam)} months ago`;

  const plan: string[] = [];
  const requester = { reference: task.requester.reference };
  if (overdosed) {
    const newMg = [400, 300, 200].find((mg) => mg <= limitMg)!;
    const tablet = newMg === 300 ? 300 : 200;
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester,
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: HCQ.rxcui, display: 'hydroxychloroquine' }], text: `hydroxychloroquine sulfate ${tablet} mg tablet` },
      dosageInstruction: [{ text: `${newMg} mg by mouth once daily`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: newMg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
      reasonCode: order.reasonCode, note: [{ text: `Dose lowered to <= ${MAX_MG_PER_KG} mg/kg of the current weight ${kg} kg (AAO 2016).` }],
      dispenseRequest: { numberOfRepeatsAllowed: 3, expectedSupplyDuration: { value: 90, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' } },
    });
    await fhir.update<MedicationRequest>({ ...order, status: 'stopped', statusReason: { text: `Replaced by ${newMg} mg daily: ${dailyMg} mg/day is ${perKg} mg/kg, above ${MAX_MG_PER_KG} mg/kg` } });
    plan.push(`Dose lowered from ${dailyMg} mg/day (${perKg} mg/kg of ${kg} kg) to ${newMg} mg once daily (${(newMg / kg).toFixed(2)} mg/kg); the old order is stopped.`);
  } else {
    plan.push(`Dose ${dailyMg} mg/day = ${perKg} mg/kg of the latest weight ${kg} kg: within the AAO limit of ${MAX_MG_PER_KG} mg/kg; no change.`);
  }
  if (due) {
    await fhir.create<ServiceRequest>({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester,
      category: [{ coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }] }],
      code: { coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }], text: 'Referral to ophthalmology: hydroxychloroquine retinopathy screening (SD-OCT and automated 10-2 visual fields)' },
      performerType: { coding: [{ system: SNOMED, code: '394594003', display: 'Ophthalmology' }], text: 'Ophthalmology' },
      reasonCode: [{ text: `Hydroxychloroquine retinopathy screening due: ${schedule}` }],
    });
    plan.push(`Retinal screening is due: ${schedule}. Referred to ophthalmology for SD-OCT and automated visual fields.`);
  } else {
    const next = new Date(Math.max(lastExam + (annual ? SCREENING.intervalMonths * (YEAR / 12) : 0), annual ? 0 : started + SCREENING.annualAfterYears * YEAR)).toISOString().slice(0, 10);
    plan.push(`Retinal screening is not due now: ${schedule}${pending.length ? '; an eye referral is already pending' : ''}. Next SD-OCT and fields due around ${next}.`);
  }
  if (examFinding && !/no hydroxychloroquine retinopathy|no .*toxicity|normal/i.test(examFinding)) plan.push(`Prior exam findings: ${examFinding}`);
  const text = `Hydroxychloroquine safety review (AAO 2016). ${person.gender === 'female' ? 'She' : 'He'} has taken hydroxychloroquine for ${years.toFixed(1)} years. Major risk factors: ${risks.length ? risks.join('; ') : 'none (eGFR ' + (egfr?.valueQuantity?.value ?? 'n/a') + ', no tamoxifen, no macular disease)'}. ${plan.join(' ')}`;
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Hydroxychloroquine dose and retinal screening review', text }));
  await finish(text);
}
