// Normal clinical phrasings that correct agents write and the verifier once misread, each with the chart where the
// tempting wrong reading gives the opposite verdict: a decision not to prescribe read as "on the drug", a stop read as
// "still active", a rule's population read as a denied diagnosis, an equivalent order code, text-only and brand
// orders, a dose written as a count of tablets, a frequency the note spells out in digits.
import t from 'tap';
import type { MedicationRequest, Resource } from '@medplum/fhirtypes';
import { covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';
import { extractClaims } from '../../../graders/documentation/claims.ts';
import { verifyNoteText } from '../../../graders/documentation/verify.ts';
import { PatientChart } from '../../../resources/evidence/chart.ts';
import { vocabulary } from '../../../resources/evidence/vocabulary.ts';
import { fixtureChart, NOTE_DATE } from '../../../graders/documentation/validation/fixture-chart.ts';

const vocab = vocabulary();
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const LOINC = 'http://loinc.org';
const SNOMED = 'http://snomed.info/sct';
const subject = { reference: 'Patient/p1' };

const order = (id: string, status: MedicationRequest['status'], concept: MedicationRequest['medicationCodeableConcept'], dosage: NonNullable<MedicationRequest['dosageInstruction']>[number]): MedicationRequest => ({
  resourceType: 'MedicationRequest', id, status, intent: 'order', subject, authoredOn: '2026-01-05', medicationCodeableConcept: concept, dosageInstruction: [dosage],
});
const bid = { timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' as const } } };
const naproxen = (status: MedicationRequest['status']) => order('naproxen', status, { coding: [{ system: RXNORM, code: '198013', display: 'naproxen 500 MG Oral Tablet' }], text: 'naproxen 500 mg tablet' },
  { ...bid, doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] });
const ibuprofen = order('ibuprofen', 'active', { coding: [{ system: RXNORM, code: '5640', display: 'ibuprofen' }] }, { text: '400 mg three times daily' });
const chart = (...extra: Resource[]) => new PatientChart([...fixtureChart, ...extra]);
const verdicts = (text: string, c: PatientChart, kind?: string) =>
  verifyNoteText(text, c, vocab, { asOf: NOTE_DATE }).filter((r) => !kind || r.claim.kind === kind).map((r) => `${r.claim.kind}:${r.verdict}`);

t.test('a decision not to prescribe is not a claim that the patient is on the drug', async (t) => {
  for (const s of ['Ibuprofen not prescribed.', 'Ibuprofen declined: NSAIDs worsen CKD on an ACE inhibitor.', 'Ibuprofen request declined.']) {
    const [claim] = extractClaims(s, vocab).claims;
    t.ok(claim.negated, `${s}: negated`);
    t.equal(claim.assertion, 'fact', `${s}: states what was done`);
    // Read as "on ibuprofen", the first verdict would be unsupported and the second supported.
    t.same(verdicts(s, chart(), 'medication'), ['medication:supported'], `${s}: no active ibuprofen order`);
    t.same(verdicts(s, chart(ibuprofen), 'medication'), ['medication:contradicted'], `${s}: an active ibuprofen order contradicts it`);
  }
  const note = 'Ibuprofen not prescribed. Ibuprofen declined: risk of acute kidney injury.';
  t.ok(grounded(note, chart(), { asOf: NOTE_DATE }).pass, 'a declining note is grounded with no ibuprofen order');
  t.notOk(grounded(note, chart(ibuprofen), { asOf: NOTE_DATE }).pass, 'and not when ibuprofen was ordered anyway');
});

t.test('a judgement about the drug is advice, not a record fact', async (t) => {
  const [claim] = extractClaims('Ibuprofen not recommended in CKD.', vocab).claims;
  t.ok(claim.negated);
  t.equal(claim.assertion, 'plan');
  t.same(verdicts('Ibuprofen not recommended in CKD.', chart(ibuprofen), 'medication'), ['medication:unverifiable']);
});

t.test('"eGFR declined" before a drug is not a decision about that drug', async (t) => {
  const meds = extractClaims('eGFR declined to 28 so metformin was reduced.', vocab).claims.filter((c) => c.kind === 'medication');
  t.same(meds.map((c) => c.negated), [false]);
});

t.test('a drug "discontinued today" after its strength and form is a stop', async (t) => {
  const s = 'naproxen 500 mg tablet discontinued today.';
  const [claim] = extractClaims(s, vocab).claims;
  t.equal(claim.status, 'stopped');
  t.same(verdicts(s, chart(naproxen('stopped'))), ['medication:supported'], 'the order is stopped');
  t.same(verdicts(s, chart(naproxen('cancelled'))), ['medication:supported'], 'or cancelled');
  t.same(verdicts(s, chart(naproxen('completed'))), ['medication:supported'], 'or completed');
  t.same(verdicts(s, chart(naproxen('active'))), ['medication:contradicted'], 'an order still active contradicts it');
  const fact = keyFactOf(naproxen('stopped'), { id: 'naproxen-stopped' });
  t.ok(covers(s, [fact], chart(naproxen('stopped')), { asOf: NOTE_DATE }).pass, 'covers the discontinuation');
  t.same(extractClaims('Metformin 1000 mg twice daily continued; lisinopril was stopped.', vocab).claims.map((c) => c.status), ['active', 'stopped']);
});

t.test('a negated rule about a drug class does not deny the population it names', async (t) => {
  const s = 'SGLT2 inhibitor not indicated in type 1 diabetes.';
  const t1d: Resource = {
    resourceType: 'Condition', id: 't1d', clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { coding: [{ system: SNOMED, code: '46635009' }], text: 'Type 1 diabetes mellitus' }, subject,
  } as Resource;
  const claims = extractClaims(s, vocab).claims.filter((c) => c.kind === 'condition');
  t.same(claims.map((c) => [c.negated, c.assertion]), [[false, 'plan']]);
  // Read as "no type 1 diabetes", a chart with type 1 diabetes would contradict the note.
  const withT1d = new PatientChart([...fixtureChart.filter((r) => r.id !== 'dm'), t1d]);
  t.notOk(verdicts(s, withT1d).includes('condition:contradicted'));
  t.ok(grounded(s, withT1d, { asOf: NOTE_DATE }).pass);
  t.ok(grounded(s, chart(), { asOf: NOTE_DATE }).pass, 'nor is it read as a type 1 diagnosis on a type 2 chart');
  t.same(verdicts('No type 1 diabetes.', withT1d), ['condition:contradicted'], 'a denial is still a denial');
});

t.test('an order is recognised through its intent group, not one code', async (t) => {
  const sr = (id: string, code: { coding?: { system: string; code: string }[]; text?: string }): Resource =>
    ({ resourceType: 'ServiceRequest', id, status: 'active', intent: 'order', subject, code, authoredOn: '2026-03-03' } as Resource);
  const uacr9318 = sr('uacr', { coding: [{ system: LOINC, code: '9318-7' }] });
  const textOnly = sr('uacr-text', { text: 'Urine albumin/creatinine ratio' });
  const potassium = sr('k-order', { coding: [{ system: LOINC, code: '2823-3' }] });
  for (const s of ['UACR ordered.', 'Urine albumin/creatinine ratio ordered.']) {
    t.same(verdicts(s, chart(uacr9318)), ['order:supported'], `${s} (9318-7)`);
    t.same(verdicts(s, chart(textOnly)), ['order:supported'], `${s} (text only)`);
    t.same(verdicts(s, chart(potassium)), ['order:unsupported'], `${s}: another test is not it`);
  }
  const noBmp = new PatientChart([...fixtureChart.filter((r) => r.id !== 'bmp-order'), potassium]);
  t.same(verdicts('Ordered BMP.', noBmp), ['order:unsupported'], 'a lone potassium is not a BMP');
  const onlyBmp = new PatientChart(fixtureChart);
  t.same(verdicts('Potassium ordered.', onlyBmp), ['order:supported'], 'a BMP measures potassium');
});

t.test('text-only and brand drug orders are key facts a note naming the drug covers', async (t) => {
  const dose = { ...bid, doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }], timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' as const } } };
  for (const text of ['empagliflozin 10 mg tablet', 'Jardiance 10 mg tablet']) {
    const empa = order('empa', 'active', { text }, dose);
    const fact = keyFactOf(empa, { id: 'sglt2' });
    t.ok(fact.codes.includes(`${RXNORM}|1545653`), `${text}: known as empagliflozin`);
    const c = chart(empa);
    t.ok(covers('Started empagliflozin 10 mg daily.', [fact], c, { asOf: NOTE_DATE }).pass, `${text}: covered`);
    t.notOk(covers('Started dapagliflozin 10 mg daily.', [fact], c, { asOf: NOTE_DATE }).pass, `${text}: another drug does not cover it`);
    t.same(verdicts('On empagliflozin 10 mg daily.', c), ['medication:supported'], `${text}: the order supports the claim`);
  }
});

t.test('the dose is read through the shared dose layer', async (t) => {
  // Two 500 mg tablets twice daily is 1000 mg per dose; the product name's 500 mg is the strength, not the dose.
  const metformin = order('metformin', 'active', { coding: [{ system: RXNORM, code: '861007', display: 'metformin hydrochloride 500 MG Oral Tablet' }], text: 'metformin 500 mg tablet' },
    { text: 'Take 2 tablets by mouth twice daily' });
  const c = new PatientChart([...fixtureChart.filter((r) => r.id !== 'metformin'), metformin]);
  t.same(verdicts('On metformin 1000 mg twice daily.', c), ['medication:supported']);
  t.same(verdicts('On metformin 500 mg twice daily.', c), ['medication:contradicted']);
  // "3 times a day" is a frequency the note states in digits: the fixture's metformin is 1000 mg twice daily.
  t.same(verdicts('On metformin 1000 mg 2 times a day.', chart()), ['medication:supported']);
  t.same(verdicts('On metformin 1000 mg 3 times a day.', chart()), ['medication:contradicted']);
  // An as-needed order is "as needed", whatever its maximum frequency.
  const prn = order('acetaminophen', 'active', { coding: [{ system: RXNORM, code: '161', display: 'acetaminophen' }] },
    { asNeededBoolean: true, timing: { repeat: { frequency: 1, period: 6, periodUnit: 'h' } }, doseAndRate: [{ doseQuantity: { value: 650, unit: 'mg' } }] });
  t.same(verdicts('Acetaminophen 650 mg as needed.', chart(prn)), ['medication:supported']);
  t.same(verdicts('Acetaminophen 650 mg every 6 hours.', chart(prn)), ['medication:contradicted']);
});
