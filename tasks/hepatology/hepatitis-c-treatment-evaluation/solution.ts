// Reference solution: read the patient, problems, allergies, every active order (each by id) and the latest result of
// each part of the pre-treatment assessment (HCV antibody and RNA, HBsAg, HIV, pregnancy test, AST, ALT, platelets,
// albumin, bilirubin, INR, eGFR); compute FIB-4 and the decompensation criteria with this file's own code; then treat
// (glecaprevir/pibrentasvir, which neither amiodarone nor a PPI rules out), complete the work-up, or refer; note; reply.
import type { Condition, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, conceptIs } from '../../../graders/lib/index.ts';
import { DECOMPENSATION, FIB4, LOINC, NEGATIVE_VALUES, REGIMENS, RESULTS, SNOMED, SVR_WEEKS_AFTER } from './facts.ts';

const FORMULARY = 'http://ehr-gym.example/fhir/CodeSystem/formulary';
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient });
  await fhir.search('AllergyIntolerance', { patient });
  const listed = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const meds: MedicationRequest[] = [];
  for (const o of listed) meds.push(await fhir.read<MedicationRequest>('MedicationRequest', o.id!));
  const latest: Record<string, Observation | undefined> = {};
  for (const [key, sets] of Object.entries({ ...RESULTS, egfr: [{ system: LOINC, codes: ['98979-8', '33914-3', '62238-1'] }] })) {
    const code = sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
    latest[key] = (await fhir.search<Observation>('Observation', { patient, code, _sort: '-date' }))
      .filter((o) => o.status !== 'entered-in-error').sort((a, b) => when(b) - when(a))[0];
  }
  const num = (k: string) => latest[k]?.valueQuantity?.value;
  const negative = (k: string) => (latest[k]?.valueCodeableConcept?.coding ?? []).some((c) => NEGATIVE_VALUES.includes(c.code ?? ''));
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / (365.2425 * 86_400_000));
  const fib4 = Math.round(((age * num('ast')!) / (num('platelets')! * Math.sqrt(num('alt')!))) * 100) / 100;
  const fibText = `FIB-4 ${fib4} (age ${age}, AST ${num('ast')}, ALT ${num('alt')}, platelets ${num('platelets')})`;

  const decompensation = [
    ...conditions.filter((c) => (c.code?.coding ?? []).some((x) => x.system === SNOMED && DECOMPENSATION.conditions[0].codes.includes(x.code ?? ''))).map((c) => c.code?.text ?? 'decompensating event'),
    ...((num('bilirubin') ?? 0) > DECOMPENSATION.bilirubinAboveMgDl ? [`total bilirubin ${num('bilirubin')} mg/dL`] : []),
    ...(num('albumin') !== undefined && num('albumin')! <= DECOMPENSATION.albuminAtOrBelowGdl ? [`albumin ${num('albumin')} g/dL`] : []),
    ...((num('inr') ?? 0) >= DECOMPENSATION.inrAtOrAbove ? [`INR ${num('inr')}`] : []),
  ];
  const note = async (text: string) => fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Hepatitis C treatment readiness', text }));
  const order = (code: { system: string; code: string; display: string }, reason: string): ServiceRequest => ({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    requester: { reference: task.requester.reference }, code: { coding: [code], text: code.display }, reasonCode: [{ text: reason }],
  });

  if (decompensation.length > 0) {
    await fhir.create<ServiceRequest>({
      ...order({ system: SNOMED, code: '306257001', display: 'Referral to hepatologist' }, 'Chronic hepatitis C with decompensated cirrhosis'),
      category: [{ coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }] }],
      performerType: { coding: [{ system: SNOMED, code: '394582007', display: 'Hepatology' }], text: 'Hepatology / liver transplant center' },
      priority: 'urgent',
    });
    const text = `${fibText} - above ${FIB4.CIRRHOSIS_ABOVE}, with decompensated cirrhosis (${decompensation.join(', ')}). Not a candidate for the simplified HCV treatment pathway; DAA therapy should be chosen by a hepatologist (protease inhibitors such as glecaprevir/pibrentasvir are contraindicated in decompensation; transplant evaluation). Urgent referral to hepatology / liver transplant center placed; no DAA started.`;
    await note(text);
    return finish(text);
  }
  const missing = [
    ...(latest.hcvRna ? [] : [{ system: LOINC, code: '11011-4', display: 'HCV RNA, quantitative (viral load)', why: 'confirm current infection (viremia)' }]),
    ...(latest.hbsag ? [] : [{ system: LOINC, code: '5196-1', display: 'Hepatitis B surface antigen (HBsAg)', why: 'HBV reactivation risk on DAA therapy' }]),
  ];
  if (missing.length > 0) {
    for (const { why, ...code } of missing) await fhir.create(order(code, why));
    const text = `${fibText}: no cirrhosis by FIB-4 (< ${FIB4.CIRRHOSIS_ABOVE}). Not ready to treat yet: the HCV antibody is reactive but ${missing.map((m) => `${m.display} (${m.why})`).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing. Ordered ${missing.map((m) => m.display).join(' and ')}; hold DAA therapy until viremia is confirmed and HBV status is known. If HCV RNA is detectable and HBsAg negative, simplified treatment with glecaprevir/pibrentasvir 8 weeks or sofosbuvir/velpatasvir 12 weeks can follow.`;
    await note(text);
    return finish(text);
  }
  const [gp] = REGIMENS;
  const onAmiodarone = meds.some((o) => conceptIs(o.medicationCodeableConcept, 'amiodarone'));
  const onPpi = meds.some((o) => conceptIs(o.medicationCodeableConcept, 'ppi'));
  await fhir.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    requester: { reference: task.requester.reference },
    medicationCodeableConcept: { coding: gp.ingredients.map((i) => ({ system: FORMULARY, code: i, display: i })), text: 'glecaprevir 100 mg / pibrentasvir 40 mg tablet (Mavyret)' },
    dosageInstruction: [{ text: `3 tablets (glecaprevir 300 mg / pibrentasvir 120 mg) by mouth once daily with food for ${gp.weeks} weeks`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', boundsDuration: { value: gp.weeks, unit: 'weeks', system: 'http://unitsofmeasure.org', code: 'wk' } } }, doseAndRate: [{ doseQuantity: { value: 3, unit: 'tablet' } }] }],
    dispenseRequest: { expectedSupplyDuration: { value: gp.weeks * 7, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' } },
    reasonCode: [{ coding: [{ system: SNOMED, code: '128302006', display: 'Chronic hepatitis C' }] }],
  });
  const why = [onAmiodarone ? 'amiodarone rules out any sofosbuvir-containing regimen (symptomatic bradycardia)' : '', onPpi ? 'the PPI can continue with glecaprevir/pibrentasvir, whereas it lowers velpatasvir absorption' : ''].filter(Boolean);
  const text = `${fibText}: no cirrhosis. HCV RNA detectable (${num('hcvRna')} IU/mL), HBsAg negative, HIV negative${latest.pregnancy ? ', pregnancy test negative' : ''}. Ready for simplified treatment: started glecaprevir/pibrentasvir 300/120 mg (3 tablets) daily with food for ${gp.weeks} weeks${why.length ? ` - ${why.join('; ')}` : ''}. Check HCV RNA and hepatic panel ${SVR_WEEKS_AFTER} weeks after completing treatment (SVR12 = cure).`;
  await note(text);
  await finish(text);
}
