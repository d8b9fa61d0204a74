// Reference solution: read the patient, problems, allergies, every medication order (the isotretinoin history and
// every active order by id), patient-reported medications, the pregnancy tests, the monthly contraception record,
// the baseline and follow-up lipids and ALT, the weight and the PHQ-9; decide with this file's own code whether the
// iPLEDGE and monitoring requirements hold; stop an interacting tetracycline or vitamin A; order what is missing; renew
// the next 30-day supply only when everything holds; note; reply.
import type { Condition, DocumentReference, MedicationRequest, MedicationStatement, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import {
  ALT, BODY_WEIGHT, CANNOT_CONCEIVE, CONTRACEPTION, DEPRESSION, FOLLOW_UP_LABS_AFTER_MONTHS, FORMULARY, IPLEDGE, LIPIDS, LOINC, NEGATIVE_VALUES, PHQ9, PREGNANCY_TEST, RXNORM, SNOMED,
} from './facts.ts';

const DAY = 86_400_000;
const codeParam = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');
const name = (o: MedicationRequest | MedicationStatement) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => `${c.code} ${c.display ?? ''}`).join(' ')}`.toLowerCase();
const isIso = (o: MedicationRequest) => /isotretinoin|absorica|claravis|amnesteem|accutane/.test(name(o));
/** Tetracyclines (RxNorm doxycycline 3640 or names) and vitamin A: the label's interactions. */
const interacting = (o: MedicationRequest | MedicationStatement) => /doxycycline|minocycline|tetracycline|sarecycline|omadacycline|demeclocycline|vitamin a\b|retinol|retinyl/.test(name(o))
  || (o.medicationCodeableConcept?.coding ?? []).some((c) => c.system === RXNORM && c.code === '3640');
const PER_DAY: Record<string, number> = { d: 1, wk: 1 / 7, h: 24 };
const mgPerDay = (o: MedicationRequest) => {
  const d = o.dosageInstruction?.[0];
  const r = d?.timing?.repeat;
  return (d?.doseAndRate?.[0]?.doseQuantity?.value ?? 0) * ((r?.frequency ?? 1) / (r?.period ?? 1)) * (PER_DAY[r?.periodUnit ?? 'd'] ?? 1);
};

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient });
  await fhir.search('AllergyIntolerance', { patient });
  const listed = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 200 });
  const orders: MedicationRequest[] = [];
  for (const o of listed.filter((x) => x.status === 'active' || isIso(x))) orders.push(await fhir.read<MedicationRequest>('MedicationRequest', o.id!));
  const statements = (await fhir.search<MedicationStatement>('MedicationStatement', { patient })).filter((s) => s.status === 'active');
  const isoOrders = orders.filter(isIso);
  const current = isoOrders.filter((o) => o.status === 'active').sort((a, b) => Date.parse(b.authoredOn ?? '') - Date.parse(a.authoredOn ?? ''))[0];
  if (!current) return finish('No active isotretinoin prescription to renew.');
  const started = Math.min(...isoOrders.map((o) => Date.parse(o.authoredOn ?? now)));
  const monthsOn = (Date.parse(now) - started) / (30.44 * DAY);

  const all = async (sets: { system: string; codes: string[] }[]) => (await fhir.search<Observation>('Observation', { patient, code: codeParam(sets), _sort: '-date' }))
    .filter((o) => o.status !== 'entered-in-error').sort((a, b) => when(b) - when(a));
  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / (365.2425 * DAY));
  const cannot = conditions.some((c) => (c.code?.coding ?? []).some((x) => CANNOT_CONCEIVE.codes.some((s) => s.system === x.system && s.codes.includes(x.code ?? '')))
    || CANNOT_CONCEIVE.words.some((w) => (c.code?.text ?? '').toLowerCase().includes(w)));
  const canConceive = person.gender === 'female' && age >= IPLEDGE.childbearingAge.min && age <= IPLEDGE.childbearingAge.max && !cannot;

  const problems: string[] = [];
  const toOrder: { code: string; display: string; why: string }[] = [];
  const findings: string[] = [];
  if (canConceive) {
    const test = (await all(PREGNANCY_TEST))[0];
    const negative = (test?.valueCodeableConcept?.coding ?? []).some((c) => NEGATIVE_VALUES.includes(c.code ?? '')) || /negative/i.test(test?.valueCodeableConcept?.text ?? '');
    const days = test ? (Date.parse(now) - when(test)) / DAY : Infinity;
    if (!test || !negative || days > IPLEDGE.pregnancyTestWithinDays) {
      problems.push(test ? `the latest pregnancy test (${test.effectiveDateTime?.slice(0, 10)}, ${Math.floor(days)} days ago) is outside the iPLEDGE ${IPLEDGE.pregnancyTestWithinDays}-day window` : 'no pregnancy test on file');
      toOrder.push({ code: '2106-3', display: 'Pregnancy test (urine hCG), CLIA-certified laboratory', why: 'iPLEDGE monthly pregnancy test before the next isotretinoin prescription' });
    } else findings.push(`negative pregnancy test ${Math.floor(days)} days ago`);
    const record = (await all(CONTRACEPTION))[0];
    const forms = (record?.component ?? []).map((c) => c.valueString).filter((v): v is string => !!v);
    const recordDays = record ? (Date.parse(now) - when(record)) / DAY : Infinity;
    if (forms.length < IPLEDGE.contraceptionFormsRequired || recordDays > IPLEDGE.contraceptionDocumentedWithinDays) {
      problems.push(`contraception this month documents ${forms.length ? forms.join(', ') : 'nothing'} - iPLEDGE requires ${IPLEDGE.contraceptionFormsRequired} forms (or committed abstinence)${record?.note?.[0]?.text ? ` (${record.note[0].text})` : ''}`);
    } else findings.push(`two forms of contraception documented (${forms.join(' + ')})`);
  } else findings.push('cannot become pregnant: no iPLEDGE pregnancy testing or contraception requirement');

  const lipids = await all(LIPIDS);
  const alt = await all(ALT);
  const weight = (await all(BODY_WEIGHT))[0];
  const phq = (await all(PHQ9))[0];
  const baselineOk = lipids.some((o) => when(o) <= started) && alt.some((o) => when(o) <= started);
  const followUpOk = lipids.some((o) => when(o) > started) && alt.some((o) => when(o) > started);
  if (!baselineOk || (monthsOn >= FOLLOW_UP_LABS_AFTER_MONTHS && !followUpOk)) {
    toOrder.push({ code: '24331-1', display: 'Lipid panel', why: 'isotretinoin monitoring (AAD 2024: lipids at baseline and peak dose)' });
    toOrder.push({ code: '1742-6', display: 'ALT', why: 'isotretinoin monitoring (AAD 2024: ALT at baseline and peak dose)' });
    findings.push(`monitoring labs ${baselineOk ? 'at the peak dose' : 'at baseline'} missing - ordered`);
  } else findings.push(`lipids/ALT at baseline${followUpOk ? ' and follow-up' : ''} (latest TG ${lipids[0]?.valueQuantity?.value} mg/dL, ALT ${alt[0]?.valueQuantity?.value} U/L)`);
  const depressed = (phq?.valueQuantity?.value ?? 0) >= DEPRESSION.holdAtLeast;
  if (depressed) problems.push(`PHQ-9 ${phq!.valueQuantity!.value} on ${phq!.effectiveDateTime?.slice(0, 10)}: moderately severe depressive symptoms on isotretinoin (label: stop and refer for evaluation)`);
  else if (phq) findings.push(`PHQ-9 ${phq.valueQuantity?.value} on ${phq.effectiveDateTime?.slice(0, 10)}`);

  // Orders already pending (a pregnancy test or labs ordered earlier this week) are not placed twice; the last
  // iPLEDGE counselling note is dated in the review.
  const pending = (await fhir.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' })).map((s) => JSON.stringify(s.code ?? {}));
  const notes = (await fhir.search<DocumentReference>('DocumentReference', { patient, _sort: '-date' })).filter((d) => /isotretinoin|ipledge/i.test(`${d.description ?? ''} ${d.type?.text ?? ''}`));
  findings.push(notes[0] ? `last isotretinoin note ${notes[0].date?.slice(0, 10)}` : 'no earlier isotretinoin note on file');
  const subject = { reference: `Patient/${patient}` };
  const requester = { reference: task.requester.reference };
  const stopped: string[] = [];
  for (const o of orders.filter((x) => x.status === 'active' && interacting(x))) {
    await fhir.update<MedicationRequest>({ ...o, status: 'stopped', statusReason: { text: 'Interacts with isotretinoin (tetracycline: pseudotumor cerebri; vitamin A: hypervitaminosis A)' } });
    stopped.push(o.medicationCodeableConcept?.text ?? 'interacting drug');
  }
  for (const s of statements.filter(interacting)) stopped.push(`${s.medicationCodeableConcept?.text} (patient-reported: advised to stop)`);
  for (const t of toOrder.filter((x) => !pending.some((p) => p.includes(x.code)))) {
    await fhir.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, requester,
      category: [{ coding: [{ system: SNOMED, code: '108252007', display: 'Laboratory procedure' }] }], code: { coding: [{ system: LOINC, code: t.code, display: t.display }], text: t.display }, reasonCode: [{ text: t.why }] });
  }
  if (depressed) {
    await fhir.create<ServiceRequest>({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'urgent', subject, authoredOn: now, requester,
      category: [{ coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }] }], code: { coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }], text: 'Referral to psychiatry / behavioral health' },
      performerType: { coding: [{ system: SNOMED, code: '394587001', display: 'Psychiatry' }], text: 'Psychiatry' },
      reasonCode: [{ text: `Depressive symptoms on isotretinoin (PHQ-9 ${phq!.valueQuantity!.value}); isotretinoin held` }] });
  }
  const renew = problems.length === 0;
  const dose = mgPerDay(current);
  if (renew) {
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, requester,
      medicationCodeableConcept: { coding: [{ system: FORMULARY, code: 'isotretinoin', display: 'isotretinoin' }], text: current.medicationCodeableConcept?.text ?? 'isotretinoin' },
      dosageInstruction: current.dosageInstruction, reasonCode: current.reasonCode,
      dispenseRequest: { numberOfRepeatsAllowed: 0, quantity: current.dispenseRequest?.quantity, expectedSupplyDuration: { value: IPLEDGE.maxSupplyDays, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' } },
    });
  }
  const kg = weight?.valueQuantity?.value;
  const text = `Isotretinoin monthly review (iPLEDGE REMS; AAD 2024), month ${Math.ceil(monthsOn)} at ${dose} mg/day${kg ? ` (${(dose / kg).toFixed(2)} mg/kg)` : ''}. Findings: ${findings.join('; ')}.`
    + `${stopped.length ? ` Stopped ${stopped.join(', ')}: tetracyclines with isotretinoin risk pseudotumor cerebri (and vitamin A adds to its toxicity).` : ''}`
    + (renew ? ` Requirements met: renewed isotretinoin ${dose} mg/day for ${IPLEDGE.maxSupplyDays} days, no refills.`
      : ` Not renewed: ${problems.join('; ')}.${toOrder.some((t) => t.code === '2106-3') ? ' Ordered a new pregnancy test; renew once it is negative and within 7 days.' : ''}${depressed ? ' Isotretinoin held for the depressive symptoms; urgent psychiatry / behavioral health referral placed and the patient to be contacted today about safety.' : ''}${problems.some((p) => p.startsWith('contraception')) ? ' She needs two forms of contraception documented (e.g. restart a hormonal method) before the next prescription; counselled.' : ''}`);
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Isotretinoin monthly review', text }));
  await finish(text);
}
