// The chart's building blocks: drug-lab physiology, allergy guard, lab interpretation, and each kind of mess.
import t from 'tap';
import type { Observation } from '@medplum/fhirtypes';
import { Chart } from '../../seed/chart.ts';
import { buildStaff } from '../../seed/staff.ts';
import { buildPatient } from '../../seed/patient.ts';
import { DEFAULT_MESS, NO_MESS, type MessRates } from '../../seed/mess.ts';
import { DRUGS } from '../../seed/drugs.ts';
import { DAY, YEAR } from '../../seed/time.ts';

const staff = buildStaff(1);
const reference = Date.parse('2025-06-30T09:00:00Z');

function chart(mess: MessRates = NO_MESS, index = 0): Chart {
  const c = new Chart({ seed: 1, index, reference, mess, staff });
  buildPatient(c);
  return c;
}

t.test('drug-lab interactions: potassium up on an ACE inhibitor, INR therapeutic on warfarin, LDL down on a statin', async (t) => {
  const c = chart();
  const start = reference - YEAR;
  const before = start - 30 * DAY;
  const after = start + 30 * DAY;
  const k0 = c.expected('K', before);
  const inr0 = c.expected('INR', before);
  const ldl0 = c.expected('LDL', before);
  const visit = c.visit(start, { reason: 'test' });
  c.prescribe(DRUGS.lisinopril10, visit);
  c.prescribe(DRUGS.warfarin5, visit);
  c.prescribe(DRUGS.atorvastatin20, visit);
  t.equal(c.expected('K', before), k0, 'nothing changes before the start');
  t.ok(Math.abs(c.expected('K', after) - k0 - 0.35) < 1e-9, 'potassium +0.35 mmol/L on lisinopril');
  t.ok(Math.abs(inr0 - 1) < 0.2, `INR off warfarin ${inr0.toFixed(2)}`);
  const inrs = Array.from({ length: 50 }, () => c.expected('INR', after));
  const mean = inrs.reduce((a, b) => a + b) / inrs.length;
  t.ok(mean > 2.2 && mean < 2.8, `mean INR on warfarin ${mean.toFixed(2)}`);
  t.ok(Math.abs(c.expected('LDL', after) - ldl0 * 0.55) < 1e-9, 'LDL falls 45% on a statin');
});

t.test('a drug the patient is allergic to is never prescribed', async (t) => {
  const c = chart();
  c.allergies.add('723'); // amoxicillin
  const visit = c.visit(reference - 100 * DAY, { reason: 'test' });
  t.equal(c.prescribe(DRUGS.amoxicillin500, visit), undefined);
  t.equal(c.courses.length, 0);
  c.allergies.add('10831'); // trimethoprim: the combination product carries it
  t.equal(c.prescribe(DRUGS.smxTmp, visit), undefined);
  t.ok(c.prescribe(DRUGS.cephalexin500, visit));
});

t.test('lab interpretation uses sex-specific ranges and critical limits', async (t) => {
  const c = chart();
  const visit = c.visit(reference - 10 * DAY, { reason: 'test' });
  c.sex = 'female';
  const f = c.lab(visit, 'HGB', { value: 12.5, reliable: true })!;
  c.sex = 'male';
  const m = c.lab(visit, 'HGB', { value: 12.5, reliable: true })!;
  const k = c.lab(visit, 'K', { value: 6.5, reliable: true })!;
  t.equal(f.interpretation![0].coding![0].code, 'N', 'Hgb 12.5 is normal for a woman');
  t.equal(m.interpretation![0].coding![0].code, 'L', 'and low for a man');
  t.equal(k.interpretation![0].coding![0].code, 'HH', 'K 6.5 is critical');
  t.same(m.referenceRange![0].low, { value: 13.5, unit: 'g/dL', system: 'http://unitsofmeasure.org', code: 'g/dL' });
  t.match(visit.results.join('\n'), /Potassium 6.5 mmol\/L \(HH\)/);
});

t.test('mess: unit variants convert value and range; local-only codes; local offsets; reliable results stay clean', async (t) => {
  const all: MessRates = { ...NO_MESS, unitVariant: 1, localCodeOnly: 1, tzOffset: 1 };
  const c = chart(all);
  const visit = c.visit(reference - 10 * DAY, { reason: 'test' });
  const glu = c.lab(visit, 'GLU', { value: 180 }) as Observation;
  t.same(glu.valueQuantity, { value: 10, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' }, '180 mg/dL = 10.0 mmol/L');
  t.equal(glu.referenceRange![0].high!.value, 5.5, 'range converted too (99 mg/dL)');
  t.same(glu.code.coding!.map((x) => x.code), ['GLU'], 'local code only');
  t.match(glu.effectiveDateTime!, /[-+]\d\d:\d\d$/);
  const reliable = c.lab(visit, 'A1C', { value: 7.1, reliable: true })!;
  t.same(reliable.code.coding!.map((x) => x.code), ['4548-4'], 'reliable results keep LOINC');
  const clean = chart(NO_MESS);
  const v2 = clean.visit(reference - 10 * DAY, { reason: 'test' });
  t.match(clean.lab(v2, 'GLU', { value: 180 })!.effectiveDateTime!, /Z$/);
});

t.test('mess: note-only values are absent from the data but present in the note', async (t) => {
  const c = chart({ ...NO_MESS, noteOnly: 1 });
  const visit = c.visit(reference - 10 * DAY, { reason: 'test' });
  t.equal(c.lab(visit, 'K', { value: 5.4 }), undefined);
  t.equal(c.resources.filter((r) => r.resourceType === 'Observation').length, 0);
  t.match(visit.results[0], /Potassium 5.4 mmol\/L \(H\) \(outside lab, not in flowsheet\)/);
  const notes = c.finish().filter((r) => r.resourceType === 'DocumentReference');
  t.match(Buffer.from((notes[0] as { content: { attachment: { data: string } }[] }).content[0].attachment.data, 'base64').toString(), /Potassium 5.4/);
});

t.test('default mess rates are all small probabilities', async (t) => {
  for (const [k, v] of Object.entries(DEFAULT_MESS)) t.ok(v > 0 && v < 0.5, `${k} = ${v}`);
});
