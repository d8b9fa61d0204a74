// Phrasings the validation set's templates do not use (agent-style notes): each must still yield the right verdict.
import t from 'tap';
import { verifyNoteText } from '../../../graders/documentation/verify.ts';
import { PatientChart } from '../../../resources/evidence/chart.ts';
import { vocabulary } from '../../../resources/evidence/vocabulary.ts';
import { fixtureChart, NOTE_DATE } from '../../../graders/documentation/validation/fixture-chart.ts';

const chart = new PatientChart(fixtureChart);
const vocab = vocabulary();
const rows: [string, string[]][] = [
  ['K+ 5.9 this morning.', ['supported']],
  ['Potassium elevated at 5.9 (3/2/26).', ['supported']],
  ['Potassium elevated at 6.4 (3/2/26).', ['contradicted']],
  ['Hgb A1c of 8.1 percent in Feb 2026.', ['supported']],
  ['Serum creat 2.1, up from 1.6.', ['supported']],
  ['eGFR has fallen to 28.', ['supported']],
  ['eGFR has fallen to 18.', ['contradicted']],
  ['Lisinopril was increased to 40 mg daily.', ['contradicted']],
  ['Lisinopril 20mg qd.', ['supported']],
  ['Pt is on apixaban 5 mg BID for afib.', ['supported', 'unsupported']],
  ['She takes metformin ER 1000 mg b.i.d.', ['supported']],
  ['Spironolactone held on 3/2 for hyperkalemia.', ['supported', 'unsupported']],
  ['PMH: DM2, CKD IV.', ['supported']], // CKD is named; DM2 is not a term the tables know
  ['No known drug allergies.', ['contradicted']],
  ['Penicillin allergy (amoxicillin - hives).', ['supported']],
];

for (const [sentence, verdicts] of rows) {
  t.test(sentence, async (t) => {
    const results = verifyNoteText(sentence, chart, vocab, { asOf: NOTE_DATE });
    t.same(results.map((r) => r.verdict), verdicts, results.map((r) => `${r.claim.text}: ${r.reason}`).join('; '));
  });
}

t.test('a problem named as a topic (screening, symptoms, risk) is not a diagnosis claim', async (t) => {
  for (const s of ['Due for colon cancer screening.', 'Heart failure symptoms: none.', 'Discussed diabetes prevention.']) {
    t.same(verifyNoteText(s, chart, vocab, { asOf: NOTE_DATE }).map((r) => r.claim.kind), [], s);
  }
  t.same(verifyNoteText('History of heart failure.', chart, vocab, { asOf: NOTE_DATE }).map((r) => r.verdict), ['unsupported']);
});
