// Verification against the fixture chart: each row is a sentence, the verdict it must get and the resource that
// decides it. Rows are chosen where the tempting wrong answer differs (unit conversion, entered-in-error values,
// coarse dates, ICD-only codes, stopped orders, laterality, citations of the wrong resource).
import t from 'tap';
import { verifyNoteText } from '../../../graders/documentation/verify.ts';
import { PatientChart } from '../../../resources/evidence/chart.ts';
import { vocabulary } from '../../../resources/evidence/vocabulary.ts';
import { fixtureChart, NOTE_DATE } from '../../../graders/documentation/validation/fixture-chart.ts';

const chart = new PatientChart(fixtureChart);
const vocab = vocabulary();

const rows: [sentence: string, verdict: string, decidedBy?: string][] = [
  ['Potassium 5.9 mmol/L on 2026-03-02.', 'supported', 'Observation/k-new'],
  ['K 5.9 on 2026-03-01.', 'contradicted', 'Observation/k-new'], // right value, wrong date
  ['Potassium 7.1 on 2026-03-01.', 'unsupported'], // only an entered-in-error result says 7.1
  ['K 4.8 mmol/L on 2026-03-02.', 'contradicted', 'Observation/k-new'], // an older value quoted for the new date
  ['Potassium 5.9 mEq/L.', 'supported', 'Observation/k-new'],
  ['Glucose 140 mg/dL on 2026-03-02.', 'supported', 'Observation/glu'], // stored as 7.8 mmol/L
  ['Glucose 160 mg/dL on 2026-03-02.', 'contradicted', 'Observation/glu'],
  ['Creatinine 186 umol/L on 2026-03-02.', 'supported', 'Observation/cr-new'],
  ['A1c 8.1% in February 2026.', 'supported', 'Observation/a1c'],
  ['A1c 8.1% in March 2026.', 'contradicted', 'Observation/a1c'],
  ['eGFR 45.', 'contradicted', 'Observation/egfr-new'], // undated: compared with the latest
  ['Hgb 9.8 g/dL.', 'supported', 'Observation/hgb'], // coded only with the local flowsheet code
  ['BP 138/89.', 'supported', 'Observation/bp'],
  ['BP 138/95.', 'contradicted', 'Observation/bp'],
  ['Troponin 0.04.', 'unsupported'],
  ['On metformin 1000 mg twice daily.', 'supported', 'MedicationRequest/metformin'],
  ['On metformin 1 g twice daily.', 'supported', 'MedicationRequest/metformin'],
  ['On metformin 500 mg twice daily.', 'contradicted', 'MedicationRequest/metformin'],
  ['On metformin 1000 mg once daily.', 'contradicted', 'MedicationRequest/metformin'],
  ['Lisinopril 20 mg daily.', 'supported', 'MedicationRequest/lisinopril'], // coded with the clinical drug, named by ingredient
  ['Spironolactone 25 mg daily.', 'contradicted', 'MedicationRequest/spironolactone'], // stopped
  ['Spironolactone was stopped.', 'supported', 'MedicationRequest/spironolactone'],
  ['Taking furosemide 40 mg daily.', 'supported', 'MedicationRequest/furosemide'], // free text only
  ['Started warfarin 5 mg daily.', 'unsupported'],
  ['Not on apixaban.', 'contradicted', 'MedicationRequest/apixaban'],
  ['Consider starting empagliflozin 10 mg daily.', 'unverifiable'],
  ['History of CKD stage 4.', 'supported', 'Condition/ckd'], // coded only in ICD-10-CM
  ['CKD stage 3.', 'contradicted', 'Condition/ckd'],
  ['Type 2 diabetes.', 'supported', 'Condition/dm'],
  ['No history of diabetes.', 'contradicted', 'Condition/dm'],
  ['No heart failure.', 'supported'],
  ['Hypothyroidism.', 'unsupported'],
  ['Left breast cancer.', 'contradicted', 'Condition/breast-ca'],
  ['Right breast cancer.', 'supported', 'Condition/breast-ca'],
  ['Allergic to amoxicillin.', 'supported', 'AllergyIntolerance/amox'],
  ['Allergy to cephalexin.', 'unsupported'],
  ['NKDA.', 'contradicted', 'AllergyIntolerance/amox'],
  ['Ordered BMP.', 'supported', 'ServiceRequest/bmp-order'],
  ['Referral to nephrology placed.', 'supported', 'ServiceRequest/neph-referral'],
  ['Referred to cardiology.', 'unsupported'],
  ['K 5.9 [Observation/k-new].', 'supported', 'Observation/k-new'],
  ['K 5.9 mmol/L [DiagnosticReport/bmp-report].', 'supported', 'Observation/k-new'], // a report cites its results
  ['K 5.9 [Observation/k-old].', 'contradicted', 'Observation/k-old'], // the cited result says 4.8
  ['K 5.9 [Observation/missing].', 'unsupported'],
  ['eGFR 28 [Observation/cr-new].', 'unsupported'], // cites a resource about something else
];

for (const [sentence, verdict, decidedBy] of rows) {
  t.test(sentence, async (t) => {
    const results = verifyNoteText(sentence, chart, vocab, { asOf: NOTE_DATE });
    t.equal(results.length, 1, 'one claim', { claims: results.map((r) => r.claim.text) });
    const [r] = results;
    t.equal(r.verdict, verdict, r.reason);
    if (decidedBy) t.ok([...r.evidence, ...r.conflicting].includes(decidedBy), `decided by ${decidedBy}`, { evidence: r.evidence, conflicting: r.conflicting });
    if (verdict === 'supported') t.same(r.conflicting, []);
  });
}

t.test('citation problems are reported', async (t) => {
  const [r] = verifyNoteText('K 5.9 [Observation/missing].', chart, vocab, { asOf: NOTE_DATE });
  t.match(r.citationProblems[0], /Observation\/missing.*not in the chart/);
});

t.test('medication status is judged as of the note date', async (t) => {
  const [before] = verifyNoteText('Spironolactone 25 mg daily.', chart, vocab, { asOf: '2025-01-01T00:00:00Z' });
  t.equal(before.verdict, 'supported', 'the order was in force in 2025');
  const [earlier] = verifyNoteText('Started warfarin 5 mg daily.', chart, vocab, { asOf: '2025-01-01T00:00:00Z' });
  t.equal(earlier.verdict, 'unsupported');
});

t.test('an explicit tolerance widens approximate values only', async (t) => {
  t.equal(verifyNoteText('eGFR about 30.', chart, vocab, { asOf: NOTE_DATE })[0].verdict, 'supported');
  t.equal(verifyNoteText('eGFR about 30.', chart, vocab, { asOf: NOTE_DATE, approximateTolerance: 0.05 })[0].verdict, 'contradicted');
  t.equal(verifyNoteText('eGFR 30.', chart, vocab, { asOf: NOTE_DATE })[0].verdict, 'contradicted');
});

t.test('a trend: the earlier value matches an older result, the later one the latest', async (t) => {
  const results = verifyNoteText('eGFR declined from 45 to 28.', chart, vocab, { asOf: NOTE_DATE });
  t.same(results.map((r) => [r.verdict, r.evidence]), [['supported', ['Observation/egfr-old']], ['supported', ['Observation/egfr-new']]]);
  const swapped = verifyNoteText('eGFR improved from 28 to 45.', chart, vocab, { asOf: NOTE_DATE });
  t.same(swapped.map((r) => r.verdict), ['contradicted', 'contradicted']);
});
