// documentation.covers / documentation.grounded and the per-note report over the fixture chart, with the note given
// as plain text, as a DocumentReference (base64) and as a Communication.
import t from 'tap';
import type { Communication, DocumentReference, Observation } from '@medplum/fhirtypes';
import { covers, grounded, keyFactOf, noteReport } from '../../../graders/documentation/index.ts';
import { PatientChart } from '../../../resources/evidence/chart.ts';
import { fixtureChart, NOTE_DATE } from '../../../graders/documentation/validation/fixture-chart.ts';

const chart = new PatientChart(fixtureChart);
const good = [
  'Nephrology e-consult. Labs 2026-03-02: potassium 5.9 mmol/L [Observation/k-new], creatinine 2.1 mg/dL, eGFR 28 (down from 45).',
  'Problems: type 2 diabetes, CKD stage 4. Medications: metformin 1000 mg twice daily, lisinopril 20 mg daily.',
  'Spironolactone was stopped. Allergies: amoxicillin.',
  'Plan: ordered BMP; referral to nephrology placed. Consider an SGLT2 inhibitor later.',
].join('\n');
const keyFacts = () => [
  keyFactOf(chart.get('Observation/k-new')!, { id: 'latest-potassium' }),
  keyFactOf(chart.get('Observation/egfr-new')!, { id: 'latest-egfr' }),
  keyFactOf(chart.get('Condition/ckd')!, { id: 'ckd' }),
  keyFactOf(chart.get('MedicationRequest/spironolactone')!, { id: 'spironolactone-stopped' }),
];

const asDocument = (text: string): DocumentReference => ({
  resourceType: 'DocumentReference', status: 'current', date: NOTE_DATE, subject: { reference: 'Patient/p1' },
  content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
});
const asCommunication = (text: string): Communication => ({ resourceType: 'Communication', status: 'completed', sent: NOTE_DATE, payload: [{ contentString: text }] });

t.test('a faithful note is grounded and covers the key facts, in every carrier', async (t) => {
  for (const note of [good, asDocument(good), asCommunication(good)]) {
    const g = grounded(note, chart, { asOf: NOTE_DATE });
    t.ok(g.pass, 'grounded', { evidence: g.evidence });
    t.equal(g.score, 1);
    const c = covers(note, keyFacts(), chart, { asOf: NOTE_DATE });
    t.ok(c.pass, 'covers', { evidence: c.evidence });
    t.equal(c.score, 1);
  }
});

t.test('one fabricated medication fails grounded; one wrong value fails grounded and coverage of that fact', async (t) => {
  const fabricated = `${good}\nAlso on warfarin 5 mg daily.`;
  const g = grounded(fabricated, chart, { asOf: NOTE_DATE });
  t.notOk(g.pass);
  t.equal(g.failure, 'unsupported_claim');
  t.match(g.evidence.join('\n'), /unsupported: "warfarin 5 mg daily"/);
  t.ok(grounded(fabricated, chart, { asOf: NOTE_DATE, maxUnsupported: 1 }).pass, 'a threshold of one tolerates it');

  const wrong = good.replace('potassium 5.9 mmol/L [Observation/k-new]', 'potassium 4.9 mmol/L');
  const w = grounded(wrong, chart, { asOf: NOTE_DATE });
  t.notOk(w.pass);
  t.equal(w.failure, 'contradicted_claim');
  t.notOk(grounded(wrong, chart, { asOf: NOTE_DATE, maxUnsupported: 10 }).pass, 'no threshold excuses a contradiction');
  const c = covers(wrong, keyFacts(), chart, { asOf: NOTE_DATE });
  t.notOk(c.pass);
  t.equal(c.score, 0.75);
  t.match(c.evidence.join('\n'), /missing latest-potassium/);
});

t.test('an older value of the key fact does not cover the latest one', async (t) => {
  const older = good.replace('potassium 5.9 mmol/L [Observation/k-new]', 'potassium 4.8 mmol/L on 2026-01-10');
  const c = covers(older, keyFacts(), chart, { asOf: NOTE_DATE });
  t.notOk(c.pass);
  t.ok(grounded(older, chart, { asOf: NOTE_DATE }).pass, 'but it is a true statement');
});

t.test('stating a stopped drug as current does not cover its discontinuation', async (t) => {
  const text = good.replace('Spironolactone was stopped.', 'Continue spironolactone 25 mg daily.');
  t.notOk(covers(text, keyFacts(), chart, { asOf: NOTE_DATE }).pass);
  t.notOk(grounded(text, chart, { asOf: NOTE_DATE }).pass);
});

t.test('the per-note report counts claims by verdict', async (t) => {
  const text = `${good}\nNo history of heart failure. Also on warfarin 5 mg daily. NKDA.`;
  const r = noteReport(text, chart, keyFacts(), { asOf: NOTE_DATE });
  t.equal(r.contradicted, 1, 'NKDA');
  t.equal(r.unsupported, 1, 'warfarin');
  t.equal(r.claims, r.supported + r.contradicted + r.unsupported + r.unverifiable);
  t.equal(r.supportedShare, r.supported / (r.supported + 2));
  t.same(r.keyFacts, { total: 4, covered: 4, coverage: 1, missing: [] });
});

t.test('keyFactOf states a result by its value and source', async (t) => {
  const f = keyFactOf(chart.get('Observation/k-new') as Observation);
  t.equal(f.kind, 'result');
  t.same(f.value, { value: 5.9, unit: 'mmol/L' });
  t.equal(f.source, 'Observation/k-new');
  t.ok(f.codes.includes('http://loinc.org|2823-3'));
  t.throws(() => keyFactOf({ resourceType: 'Patient', id: 'x' }));
});
