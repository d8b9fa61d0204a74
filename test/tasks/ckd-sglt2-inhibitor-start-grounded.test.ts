// nephrology/ckd-sglt2-inhibitor-start: the reference note covers the key facts and is grounded; one fabricated
// value (a wrong UACR) or a fabricated medication fails `grounded`.
import t from 'tap';
import { grounded, keyFactOf } from '../../graders/documentation/index.ts';
import { ckdSglt2Note } from '../../tasks/nephrology/ckd-sglt2-inhibitor-start/solution.ts';
import { condition, lab, LOINC, med, serviceRequest } from './chart-builders.ts';
import { assertFabricatedValueFails, assertInjectedWarfarinFails, assertReferenceNote, chartOf } from './grounding-checks.ts';

const egfr = lab('e1', '33914-3', 'eGFR', 34, 'mL/min/{1.73_m2}', '2025-05-04T09:00:00-05:00');
const egfrOld = lab('e0', '33914-3', 'eGFR', 39, 'mL/min/{1.73_m2}', '2025-01-27T09:00:00-05:00');
const uacr = lab('u1', '14959-1', 'Albumin/Creatinine [Mass Ratio] in Urine', 134, 'mg/g', '2025-05-04T09:00:00-05:00');
const k = lab('k1', '2823-3', 'Potassium', 4.8, 'mmol/L', '2025-05-04T09:00:00-05:00');
const ckd = condition('ckd', '433144002', 'Chronic kidney disease stage 3a');
const lisinopril = med('lis', 'active', '314076', 'lisinopril 10 MG Oral Tablet', 10, 'mg', 1, '2022-03-01T10:00:00Z');
const empa = med('empa', 'active', '1545653', 'empagliflozin 10 MG Oral Tablet', 10, 'mg', 1, '2025-07-01T15:00:00Z');
const order = serviceRequest('uacr-order', LOINC, '14959-1', 'Urine albumin/creatinine ratio', '108252007');
const chart = chartOf(egfr, egfrOld, uacr, k, ckd, lisinopril, empa, order);

const note = ckdSglt2Note({ ckd: 'Chronic kidney disease stage 3a', egfr: [egfr, egfrOld], uacr, potassium: k, raas: 'lisinopril 10 mg once daily', uacrDue: '2025-09-29' });
const facts = [egfr, uacr, k, ckd, lisinopril, empa].map((r) => keyFactOf(r));

t.test('the reference note covers every key fact and is grounded', async (t) => {
  assertReferenceNote(t, note, facts, chart, /0 contradicted, 0 unsupported/);
});

t.test('one fabricated UACR fails grounded', async (t) => {
  assertFabricatedValueFails(t, note, 'ratio 134 mg/g', 'ratio 340 mg/g', chart);
});

t.test('a fabricated current medication fails grounded', async (t) => {
  const fabricated = note.replace('on lisinopril 10 mg once daily', 'on lisinopril 40 mg once daily');
  t.notOk(grounded(fabricated, chart, { maxUnsupported: 0 }).pass);
});

t.test('one injected fabricated medication (warfarin) fails grounded', async (t) => {
  assertInjectedWarfarinFails(t, note, chart);
});
