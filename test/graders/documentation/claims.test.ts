// Claim extraction: each row is a sentence and the claim it must yield (kind, concept, value, unit, date, dose,
// frequency, negation, plan/fact, citations), or none.
import t from 'tap';
import { extractClaims } from '../../../graders/documentation/claims.ts';
import { vocabulary } from '../../../resources/evidence/vocabulary.ts';

const vocab = vocabulary();
const one = (text: string) => {
  const { claims } = extractClaims(text, vocab);
  return claims;
};

t.test('results: value, unit, date at its precision, span', async (t) => {
  const text = 'Potassium 5.9 mmol/L on 2026-03-02.';
  const [c] = one(text);
  t.equal(c.kind, 'result');
  t.equal(c.concept.display, 'Potassium');
  t.ok(c.concept.codes.includes('http://loinc.org|2823-3'));
  t.same(c.value, { value: 5.9, decimals: 1, unit: 'mmol/L' });
  t.equal(c.date?.value, '2026-03-02');
  t.equal(c.date?.precision, 'day');
  t.equal(text.slice(c.span.start, c.span.end), 'Potassium 5.9 mmol/L');
  const [a1c] = one('A1c 8.1% in March 2026');
  t.same([a1c.value?.value, a1c.value?.unit, a1c.date?.value, a1c.date?.precision], [8.1, '%', '2026-03', 'month']);
  const [egfr] = one('eGFR 28');
  t.same([egfr.concept.codes[0], egfr.value?.value, egfr.value?.unit], ['http://loinc.org|33914-3', 28, undefined]);
  const [bp] = one('BP 138/89 mmHg');
  t.same([bp.value?.value, bp.value?.second], [138, 89]);
  const [approx] = one('eGFR about 42');
  t.equal(approx.value?.comparator, '~');
  const [us] = one('Creatinine was 2.1 mg/dL on 3/2/2026');
  t.equal(us.date?.value, '2026-03-02');
});

t.test('a section header date applies to the lines below it; a lab header line applies to its results', async (t) => {
  const claims = one('Labs (2026-03-02): K 5.9, Cr 2.1, eGFR 28.');
  t.same(claims.map((c) => [c.concept.display, c.value?.value, c.date?.value]), [['Potassium', 5.9, '2026-03-02'], ['Creatinine', 2.1, '2026-03-02'], ['Glomerular filtration rate/1.73 sq M.predicted', 28, '2026-03-02']]);
});

t.test('"from X to Y" yields an earlier value and a current one', async (t) => {
  const claims = one('eGFR declined from 45 to 28 over a year.');
  t.same(claims.map((c) => [c.value?.value, c.temporal]), [[45, 'earlier'], [28, undefined]]);
});

t.test('targets, goals and salts are not results', async (t) => {
  t.same(one('Goal A1c < 7%.'), []);
  t.same(one('Current medications: losartan potassium 50 MG Oral Tablet').map((c) => c.kind), ['medication']);
  t.same(one('Recheck potassium in 1 week.'), []);
});

t.test('medications: dose, frequency, status, plan or fact', async (t) => {
  const [m] = one('On metformin 1000 mg twice daily.');
  t.same([m.kind, m.concept.display, m.dose, m.frequency?.perDay, m.status, m.assertion], ['medication', 'metformin', { value: 1000, unit: 'mg' }, 2, 'active', 'fact']);
  const [stopped] = one('Metformin was stopped last month.');
  t.equal(stopped.status, 'stopped');
  const [dc] = one('Discontinued spironolactone.');
  t.equal(dc.status, 'stopped');
  const [plan] = one('Consider starting empagliflozin 10 mg daily.');
  t.same([plan.status, plan.assertion, plan.frequency?.perDay], ['started', 'plan', 1]);
  const [cont] = one('Plan:\n- Continue lisinopril 20 mg daily.');
  t.same([cont.status, cont.assertion], ['active', 'fact']);
  const [weekly] = one('alendronate 70 mg once weekly');
  t.equal(weekly.frequency?.perDay, 1 / 7);
  const [prn] = one('ibuprofen 400 mg every 6 hours as needed');
  t.equal(prn.frequency?.perDay, 0);
  const [neg] = one('Not on apixaban.');
  t.ok(neg.negated);
});

t.test('problems: negation scope, family history, laterality, hedges', async (t) => {
  const claims = one('History of type 2 diabetes and CKD stage 4. No history of heart failure or atrial fibrillation.');
  t.same(claims.map((c) => [c.concept.display, c.negated]), [
    ['Diabetes mellitus type 2', false], ['Chronic kidney disease stage 4', false], ['Heart failure', true], ['Atrial fibrillation', true],
  ]);
  t.same(one('Denies chest pain but has hypertension.').map((c) => [c.concept.display, c.negated]), [['Hypertensive disorder, systemic arterial', false]]);
  t.same(one('Family history of colon cancer.'), []);
  const [side] = one('Left breast cancer, on treatment.');
  t.equal(side.laterality, 'left');
  const [hedge] = one('Possible heart failure; will evaluate.');
  t.equal(hedge.assertion, 'plan');
  t.same(one('ECG: sinus rhythm with lateral ST depression.'), [], 'ST depression is not depression');
});

t.test('allergies and NKDA', async (t) => {
  const [a] = one('Allergies: amoxicillin (hives).');
  t.same([a.kind, a.concept.display, a.negated], ['allergy', 'amoxicillin', false]);
  const [n] = one('NKDA.');
  t.same([n.kind, n.negated, n.concept.codes], ['allergy', true, []]);
});

t.test('orders: labs, procedures and referrals with an order verb; a lab named as a reason is not an order', async (t) => {
  t.same(one('Ordered BMP and referral to nephrology.').map((c) => [c.kind, c.concept.display, c.assertion]), [['order', 'Basic metabolic panel - Blood', 'fact'], ['order', 'nephrology', 'fact']]);
  t.same(one('Referred to nephrology for reduced eGFR.').map((c) => c.concept.display), ['nephrology']);
  t.same(one('Will order a chest X-ray.').map((c) => [c.kind, c.assertion]), [['order', 'plan']]);
});

t.test('citations attach to the claims before them in the sentence, never read as words', async (t) => {
  const { claims, citations } = extractClaims('K 5.9 [Observation/k-new], Cr 2.1 [Observation/cr-new, DiagnosticReport/r1]. A1c 8.1%.', vocab);
  t.equal(citations.length, 3);
  t.same(claims.map((c) => c.citations), [['Observation/k-new'], ['Observation/cr-new', 'DiagnosticReport/r1'], []]);
  const [first] = extractClaims('[Observation/a1c] A1c 8.1%.', vocab).claims;
  t.same(first.citations, ['Observation/a1c'], 'a citation opening a sentence goes to the next claim');
});

t.test('deterministic: the same text gives the same claims', async (t) => {
  const text = 'K 5.9 on 2026-03-02. On metformin 1000 mg twice daily. No heart failure.';
  t.same(extractClaims(text, vocab), extractClaims(text, vocab));
});

t.test('a threshold is not a result: "eGFR of 20 or more" in an Assessment/Plan line (or any line)', async (t) => {
  const results = (text: string) => one(text).filter((c) => c.kind === 'result');
  t.same(results('Assessment/Plan: empagliflozin is appropriate with an eGFR of 20 or more.'), []);
  t.same(results('Assessment: eGFR of 20 or more is needed to start an SGLT2 inhibitor.'), []);
  t.same(results('Metformin can continue at an eGFR of at least 30.'), []);
  t.same(results('eGFR of 20 or less rules out starting it.'), []);
  // A result beside a threshold is still read.
  t.same(results('Assessment/Plan: eGFR 34 on 2025-05-04; SGLT2 inhibitor indicated with an eGFR of 20 or more.').map((c) => c.value?.value), [34]);
  t.same(results('eGFR 38 mL/min/1.73m2, above 30.').map((c) => c.value?.value), [38]);
});

t.test('hedged risks are not diagnoses: "risks", "risk of/for", "to avoid", "monitor for", "watch for"', async (t) => {
  const hyperkalemia = (text: string) => one(text).filter((c) => c.kind === 'condition' && /hyperkal/i.test(c.text));
  for (const text of [
    'An NSAID risks acute kidney injury and hyperkalemia.',
    'Ibuprofen with losartan risks hyperkalemia in CKD.',
    'Ibuprofen carries a risk of hyperkalemia.',
    'Older adults on an ARB are at higher risk for hyperkalemia.',
    'Acetaminophen is preferred to avoid hyperkalemia.',
    'Monitor for hyperkalemia after the dose increase.',
    'Watch for hyperkalemia and rising creatinine.',
  ]) {
    const claims = hyperkalemia(text);
    t.equal(claims.length, 1, text);
    t.equal(claims[0]?.assertion, 'plan', text);
  }
  // A stated diagnosis is still a fact.
  t.equal(hyperkalemia('Hyperkalemia in March, now resolved on a low-potassium diet.')[0]?.assertion, 'fact');
});

t.test('a requested drug is not a current medication: a heading "ibuprofen request", "requests ibuprofen"', async (t) => {
  const asCurrent = (text: string) => one(text).filter((c) => c.kind === 'medication' && /ibuprofen/i.test(c.text) && c.assertion === 'fact' && !c.negated && c.status === 'active');
  t.same(asCurrent('Ibuprofen request: the patient asks about ibuprofen for knee pain.'), []);
  t.same(asCurrent('Re: ibuprofen request\nLabs: eGFR 41.'), []);
  t.same(asCurrent('# Ibuprofen request'), []);
  t.same(asCurrent('The patient requests ibuprofen 400 mg three times daily for knee pain.'), []);
  t.same(asCurrent('Question: should ibuprofen 400 mg three times daily be prescribed?'), []);
  // Stating the drug is taken is still a current-medication claim.
  t.equal(asCurrent('Medications: on ibuprofen 400 mg three times daily.').length, 1);
  t.equal(asCurrent('Ibuprofen request: she is taking ibuprofen 400 mg twice daily already.').length, 1);
});
