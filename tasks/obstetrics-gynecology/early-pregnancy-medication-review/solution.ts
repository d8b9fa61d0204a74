// Reference solution: confirm the pregnancy (test, problem, dates), read every active order by id, the problems, the
// weight and the latest INR and blood pressure; then, with this file's own rules over facts.ts: stop each drug that is
// contraindicated in pregnancy, keep an antiseizure drug and refer urgently to neurology, replace an ACE inhibitor/ARB
// with labetalol when hypertension remains and warfarin with weight-based enoxaparin when the VTE is recent, start
// folic acid at the dose the risk calls for, write the note and reply.
import type { AllergyIntolerance, Condition, MedicationRequest, MedicationStatement, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, conceptIs } from '../../../graders/lib/index.ts';
import { CONTINUE_AND_REFER, FOLIC_ACID, FOLIC_ACID_MG, HYPERTENSION, LOINC, PRENATAL_VITAMIN, SNOMED, STOP, VTE, VTE_TREATMENT_DAYS } from './facts.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const FORMULARY = 'http://ehr-gym.example/fhir/CodeSystem/formulary';
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');
const name = (o: MedicationRequest) => o.medicationCodeableConcept?.text ?? o.medicationCodeableConcept?.coding?.[0]?.display ?? 'medication';
const has = (c: Condition, sets: { system: string; codes: string[] }[]) => (c.code?.coding ?? []).some((x) => sets.some((s) => s.system === x.system && s.codes.includes(x.code ?? '')));

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const tests = (await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|2106-3,${LOINC}|2118-8`, _sort: '-date' })).sort((a, b) => when(b) - when(a));
  const positive = tests.find((o) => o.status !== 'entered-in-error' && (o.valueCodeableConcept?.coding ?? []).some((c) => c.code === '10828004'));
  if (!positive) return finish('No positive pregnancy test on file; nothing changed.');
  await fhir.read('Observation', positive.id!);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  // Dates: the pregnancy problem's note carries the LMP, which gives the gestational age for the note.
  const pregnancy = conditions.find((c) => (c.code?.coding ?? []).some((x) => x.code === '77386006'));
  const lmp = pregnancy ? (await fhir.read<Condition>('Condition', pregnancy.id!)).note?.[0]?.text?.match(/LMP (\d{4}-\d{2}-\d{2})/)?.[1] : undefined;
  const weeks = lmp ? Math.floor((Date.parse(now) - Date.parse(lmp)) / (7 * 86_400_000)) : undefined;
  const allergies = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  const allergic = (drug: string) => allergies.some((a) => conceptIs(a.code, drug));
  // Over-the-counter and outside medications the patient reports are part of the list too.
  const reported = await fhir.search<MedicationStatement>('MedicationStatement', { patient, status: 'active' });
  const listed = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const meds: MedicationRequest[] = [];
  for (const o of listed) meds.push(await fhir.read<MedicationRequest>('MedicationRequest', o.id!));
  // A result marked entered-in-error was never a result (FHIR R4 Observation.status).
  const latest = async (code: string) => (await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|${code}`, _sort: '-date' }))
    .filter((o) => o.status !== 'entered-in-error').sort((a, b) => when(b) - when(a))[0];
  const weight = (await latest('29463-7'))?.valueQuantity?.value;
  const inr = (await latest('6301-6'))?.valueQuantity?.value;
  const bp = await latest('85354-9');
  const egfr = (await latest('98979-8'))?.valueQuantity?.value ?? (await latest('33914-3'))?.valueQuantity?.value;
  const sbp = bp?.component?.find((c) => c.code.coding?.[0]?.code === '8480-6')?.valueQuantity?.value;

  const lines: string[] = [];
  const stopped: MedicationRequest[] = [];
  for (const o of meds.filter((m) => STOP.some((id) => conceptIs(m.medicationCodeableConcept, id)))) {
    await fhir.patch('MedicationRequest', o.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: 'Pregnancy: contraindicated (teratogenic/fetotoxic)' } },
    ]);
    stopped.push(o);
    lines.push(`Stopped ${name(o)}: contraindicated in pregnancy.`);
  }
  const create = (r: MedicationRequest) => fhir.create<MedicationRequest>({ ...r, resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference } });
  const oral = { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] };
  const daily = (n: number) => ({ repeat: { frequency: n, period: 1, periodUnit: 'd' as const } });

  const hypertensive = conditions.some((c) => has(c, HYPERTENSION));
  if (hypertensive && !allergic('labetalol') && stopped.some((o) => ['ace-inhibitor', 'arb', 'arni', 'renin-inhibitor'].some((id) => conceptIs(o.medicationCodeableConcept, id)))) {
    await create({ medicationCodeableConcept: { coding: [{ system: RXNORM, code: '896758', display: 'labetalol hydrochloride 100 MG Oral Tablet' }] },
      dosageInstruction: [{ text: '100 mg by mouth twice daily', route: oral, timing: daily(2), doseAndRate: [{ doseQuantity: { value: 100, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
      reasonCode: [{ text: 'Chronic hypertension in pregnancy' }] } as MedicationRequest);
    lines.push(`Started labetalol 100 mg twice daily for chronic hypertension (BP ${sbp ?? '?'} systolic); titrate to < 140/90.`);
  }
  const recentVte = conditions.some((c) => has(c, VTE) && Date.parse(now) - Date.parse(c.onsetDateTime ?? '') <= VTE_TREATMENT_DAYS * 86_400_000);
  if (recentVte && weight && stopped.some((o) => conceptIs(o.medicationCodeableConcept, 'warfarin'))) {
    // Enoxaparin is renally cleared: below an eGFR of 30 the dose is a specialist's call, not a generalist's.
    if (egfr !== undefined && egfr < 30) throw new Error(`eGFR ${egfr}: no variant needs renal LMWH dosing`);
    const mg = Math.round(weight / 10) * 10;
    await create({ medicationCodeableConcept: { coding: [{ system: RXNORM, code: '67108', display: 'enoxaparin' }], text: `enoxaparin ${mg} mg/0.${mg / 10} mL` },
      dosageInstruction: [{ text: `${mg} mg subcutaneously every 12 hours`, route: { coding: [{ system: SNOMED, code: '34206005', display: 'Subcutaneous route' }] }, timing: daily(2), doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
      reasonCode: [{ text: 'DVT in its treatment phase; warfarin embryopathy' }] } as MedicationRequest);
    lines.push(`Started enoxaparin ${mg} mg SC every 12 hours (1 mg/kg, weight ${weight} kg) in place of warfarin (last INR ${inr ?? 'n/a'}); start when INR < 2 per anticoagulation clinic.`);
  }
  const antiseizure = meds.filter((m) => CONTINUE_AND_REFER.some((r) => conceptIs(m.medicationCodeableConcept, r.drug)));
  for (const o of antiseizure) {
    await fhir.create<ServiceRequest>({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'urgent', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      category: [{ coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }] }], code: { coding: [{ system: SNOMED, code: '306118006', display: 'Referral to neurologist' }] },
      performerType: { coding: [{ system: SNOMED, code: '394591006', display: 'Neurology' }] }, reasonCode: [{ text: `Pregnancy on ${name(o)}` }],
    });
    lines.push(`Continue ${name(o)} for now - do not stop abruptly (seizure risk); urgent neurology referral to review the antiseizure regimen in pregnancy.`);
  }
  const folate = [...meds, ...reported].filter((m) => conceptIs(m.medicationCodeableConcept, FOLIC_ACID) || PRENATAL_VITAMIN.test(m.medicationCodeableConcept?.text ?? ''));
  const [lo] = antiseizure.length ? FOLIC_ACID_MG.antiseizure : FOLIC_ACID_MG.standard;
  const dose = antiseizure.length ? 4 : lo;
  if (folate.length === 0) {
    await create({ medicationCodeableConcept: { coding: [{ system: FORMULARY, code: FOLIC_ACID, display: FOLIC_ACID }], text: `folic acid ${dose} mg tablet` },
      dosageInstruction: [{ text: `${dose} mg by mouth once daily`, route: oral, timing: daily(1), doseAndRate: [{ doseQuantity: { value: dose, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }] } as MedicationRequest);
    lines.push(`Started folic acid ${dose} mg daily${antiseizure.length ? ' (higher dose with antiseizure medication)' : ''}.`);
  }
  const kept = meds.filter((m) => !stopped.includes(m) && !antiseizure.includes(m));
  if (kept.length) lines.push(`Compatible with pregnancy, continue unchanged: ${kept.map(name).join(', ')}.`);
  const text = `Early pregnancy medication review (positive urine hCG ${positive.effectiveDateTime?.slice(0, 10)}${weeks !== undefined ? `, ${weeks} weeks by LMP ${lmp}` : ''}). ${lines.join(' ')}${reported.length ? ` Patient-reported: ${reported.map((m) => m.medicationCodeableConcept?.text).join(', ')}.` : ''}`;
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Medication review in early pregnancy', text }));
  await finish(text);
}
