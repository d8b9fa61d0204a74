// nephrology/ckd-nsaid-request-declined: the reference note covers the key facts and is grounded; one fabricated
// value (a wrong eGFR) or a claim that ibuprofen was ordered fails `grounded`.
import t from 'tap';
import { grounded, keyFactOf } from '../../graders/documentation/index.ts';
import { nsaidNote } from '../../tasks/nephrology/ckd-nsaid-request-declined/solution.ts';
import { condition, lab, med } from './chart-builders.ts';
import { assertFabricatedValueFails, assertInjectedWarfarinFails, assertReferenceNote, chartOf } from './grounding-checks.ts';

const egfr = lab('e1', '33914-3', 'eGFR', 41, 'mL/min/{1.73_m2}', '2025-04-26T09:00:00-05:00');
const k = lab('k1', '2823-3', 'Potassium', 4.4, 'mmol/L', '2025-04-26T09:00:00-05:00');
const ckd = condition('ckd', '433144002', 'Chronic kidney disease stage 3a');
const losartan = med('los', 'active', '979492', 'losartan potassium 50 MG Oral Tablet', 50, 'mg', 1, '2021-02-01T10:00:00Z');
const chart = chartOf(egfr, k, ckd, losartan);
const note = nsaidNote({ ckd: 'Chronic kidney disease stage 3a', egfr, potassium: k, raas: 'losartan potassium 50 mg once daily' });
const facts = [egfr, k, ckd, losartan].map((r) => keyFactOf(r));

t.test('the reference note covers every key fact and is grounded', async (t) => {
  assertReferenceNote(t, note, facts, chart, /0 contradicted/);
});

t.test('one fabricated eGFR fails grounded', async (t) => {
  assertFabricatedValueFails(t, note, 'eGFR 41 mL', 'eGFR 61 mL', chart);
});

t.test('a fabricated current ibuprofen is unsupported and fails grounded (no allowance for unsupported claims)', async (t) => {
  const fabricated = note.replace('Medications: on losartan', 'Medications: on ibuprofen 400 mg three times daily and losartan');
  t.not(fabricated, note);
  const g = grounded(fabricated, chart, { maxUnsupported: 0 });
  t.match(g.evidence.join('\n'), /unsupported: "ibuprofen 400 mg three times daily"/);
  t.notOk(g.pass);
  t.equal(g.failure, 'unsupported_claim');
});

t.test('one injected fabricated medication (warfarin) fails grounded', async (t) => {
  assertInjectedWarfarinFails(t, note, chart);
});
