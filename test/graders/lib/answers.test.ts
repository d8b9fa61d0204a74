import t from 'tap';
import { answerField, matchNumber, matchTerms, matchYesNo, numbersIn } from '../../../graders/lib/answers.ts';

t.test('numbersIn reads values with units and skips dates', async (t) => {
  const found = numbersIn('LDL 191 mg/dL on 2024-03-01, K 5.9 mmol/L, A1c 8.4%');
  t.same(found.map((n) => [n.value, n.unit]), [[191, 'mg/dL'], [5.9, 'mmol/L'], [8.4, '%']]);
  t.same(numbersIn('total 1,250 cells').map((n) => n.value), [1250]);
});

t.test('matchNumber: "191 mg/dL", "191" and {"ldl": 191} all equal 191 mg/dL', async (t) => {
  const expected = { value: 191, unit: 'mg/dL', tolerance: { absolute: 0.5 }, fields: ['ldl'] };
  t.ok(matchNumber('191 mg/dL', expected).ok);
  t.ok(matchNumber('191', expected).ok);
  t.ok(matchNumber(191, expected).ok);
  t.ok(matchNumber({ ldl: 191 }, expected).ok);
  t.ok(matchNumber('{"LDL": 191}', expected).ok, 'JSON held in a string, key case-insensitive');
  t.ok(matchNumber('LDL was 1.91 g/L', expected).ok, 'converted from g/L');
});

t.test('matchNumber reports the wrong value it saw', async (t) => {
  const m = matchNumber('LDL 160 mg/dL', { value: 191, unit: 'mg/dL', tolerance: { absolute: 0.5 } });
  t.notOk(m.ok);
  t.match(m.mismatches[0], /expected 191 mg\/dL.*160 mg\/dL/);
  t.notOk(matchNumber('', { value: 191 }).ok, 'no answer');
  t.notOk(matchNumber('191 mmol/L', { value: 191, unit: 'mg/dL' }).ok, 'incompatible unit is not a match');
});

t.test('matchNumber near a keyword ignores the tempting other numbers', async (t) => {
  // The old potassium (4.8) and eGFR (42) are in the text; only the number after "K" counts.
  const expected = { value: 5.9, unit: 'mmol/L', tolerance: { absolute: 0.05 }, near: ['k ', 'potassium'], window: 20 };
  t.ok(matchNumber('eGFR 42, K 5.9 mmol/L (was 4.8)', expected).ok);
  t.notOk(matchNumber('eGFR 42, K 4.8 mmol/L, now 5.9 later', { ...expected, window: 8 }).ok);
});

t.test('matchNumber: mEq/L equals mmol/L for potassium', async (t) => {
  t.ok(matchNumber('K 5.9 mEq/L', { value: 5.9, unit: 'mmol/L', tolerance: { absolute: 0.05 } }).ok);
});

t.test('answerField is case and separator insensitive', async (t) => {
  t.equal(answerField('{"at_goal": false}', 'atGoal'), false);
  t.equal(answerField('no json here', 'x'), undefined);
});

t.test('matchYesNo: "not at goal" is a no, not an ambiguous answer', async (t) => {
  const opts = { fields: ['atGoal'], yes: ['at goal'], no: ['not at goal', 'above goal'] };
  t.ok(matchYesNo('A1c 8.4%, not at goal', false, opts).ok);
  t.notOk(matchYesNo('A1c 8.4%, not at goal', true, opts).ok);
  t.ok(matchYesNo('{"atGoal": true}', true, opts).ok);
  t.notOk(matchYesNo('8.4%', true, opts).ok, 'no judgement given');
  t.notOk(matchYesNo('at goal, or above goal', true, opts).ok, 'both is ambiguous');
});

t.test('matchTerms reports every missing term', async (t) => {
  const m = matchTerms('Stopped lisinopril.', ['lisinopril', ['potassium', 'K+'], 'repeat']);
  t.same(m.mismatches, ['missing "potassium" or "K+"', 'missing "repeat"']);
});
