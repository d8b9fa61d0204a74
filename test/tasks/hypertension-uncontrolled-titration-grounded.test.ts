// cardiology/hypertension-uncontrolled-titration: the reference note (built by the solution's own note builder)
// covers the key facts and is grounded in the chart; the same note with one fabricated value fails `grounded`.
import t from 'tap';
import { covers, grounded, keyFactOf } from '../../graders/documentation/index.ts';
import { hypertensionNote } from '../../tasks/cardiology/hypertension-uncontrolled-titration/solution.ts';
import { bp, condition, lab, LOINC, med, serviceRequest } from './chart-builders.ts';
import { assertFabricatedValueFails, assertInjectedWarfarinFails, assertReferenceNote, chartOf } from './grounding-checks.ts';

const bp1 = bp('bp1', 138, 91, '2025-06-10T09:10:00-05:00');
const bp2 = bp('bp2', 142, 86, '2025-04-22T10:05:00-05:00');
const k = lab('k1', '2823-3', 'Potassium', 4.6, 'mmol/L', '2025-04-22T10:30:00-05:00');
const kOld = lab('k0', '2823-3', 'Potassium', 4.1, 'mmol/L', '2024-10-02T10:30:00-05:00');
const egfr = lab('e1', '33914-3', 'eGFR', 71, 'mL/min/{1.73_m2}', '2025-04-22T10:30:00-05:00');
const htn = condition('htn', '59621000', 'Essential hypertension');
const oldOrder = med('lis10', 'stopped', '314076', 'lisinopril 10 MG Oral Tablet', 10, 'mg', 1, '2021-05-01T10:00:00Z');
const newOrder = med('lis20', 'active', '314077', 'lisinopril 20 MG Oral Tablet', 20, 'mg', 1, '2025-07-01T16:00:00Z');
const bmp = serviceRequest('bmp', LOINC, '51990-0', 'Basic metabolic panel', '108252007');
const chart = chartOf(bp1, bp2, k, kOld, egfr, htn, oldOrder, newOrder, bmp);

const note = hypertensionNote({
  pressures: [bp1, bp2], potassium: k, egfr,
  change: 'lisinopril increased to 20 mg once daily (the 10 mg order was stopped and replaced)', labs: 'basic metabolic panel ordered for 2025-07-15',
});
const facts = [keyFactOf(bp1, { id: 'bp' }), keyFactOf(k, { id: 'k' }), keyFactOf(egfr, { id: 'egfr' }), keyFactOf(htn, { id: 'htn' }), keyFactOf(newOrder, { id: 'order' })];

t.test('the reference note covers every key fact and is grounded', async (t) => {
  assertReferenceNote(t, note, facts, chart, /0 contradicted, 0 unsupported/);
});

t.test('one fabricated value (potassium 5.4 instead of 4.6) fails grounded', async (t) => {
  const { fabricated, evidence } = assertFabricatedValueFails(t, note, 'potassium 4.6 mmol/L', 'potassium 5.4 mmol/L', chart);
  t.match(evidence, /contradicted: "potassium 5\.4/i);
  t.notOk(covers(fabricated, facts, chart).pass, 'the fabricated potassium no longer covers the latest potassium');
});

t.test('a fabricated blood pressure and a fabricated dose are caught too', async (t) => {
  t.notOk(grounded(note.replace('138/91', '128/78'), chart, { maxUnsupported: 0 }).pass, 'wrong BP');
  t.notOk(grounded(note.replace('increased to 20 mg', 'increased to 40 mg'), chart, { maxUnsupported: 0 }).pass, 'wrong new dose');
});

t.test('one injected fabricated medication (warfarin) fails grounded', async (t) => {
  assertInjectedWarfarinFails(t, note, chart);
});
