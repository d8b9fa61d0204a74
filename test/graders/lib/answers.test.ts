import t from 'tap';
import { answerField, matchDate, matchFieldAgreesWithProse, matchFraction, matchNumber, matchRecommendation, matchTerms, matchYesNo, numbersIn } from '../../../graders/lib/answers.ts';

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

// ---- issue 13: graded on meaning ----------------------------------------------------------------------------------

const POTASSIUM = { value: 5.9, unit: 'mmol/L', tolerance: { absolute: 0.05 }, near: ['k', 'potassium'], window: 30, fields: ['potassium', 'k'] };

t.test('matchNumber: the value with or without its unit, followed by any punctuation', async (t) => {
  for (const answer of ['5.9 mmol/L.', 'K 5.9,', 'Potassium (5.9)', '5.9mmol/L', 'K 5.9 mEq/L.', '{"potassium": "5.9 mmol/L."}', 'K was 5.9 on 2024-03-13.']) {
    t.ok(matchNumber(answer, POTASSIUM).ok, answer);
  }
});

t.test('matchNumber: a number that belongs to something else is not the value', async (t) => {
  t.notOk(matchNumber('K 3.5-5.9 (ref)', POTASSIUM).ok, 'a range bound');
  t.notOk(matchNumber('Potassium: ref 3.5-5.9, latest 4.2', POTASSIUM).ok, 'the bound of the reference range equals the expected value');
  t.notOk(matchNumber('K 4.8 on 3/13; eGFR 5.9', POTASSIUM).ok, 'the 5.9 is eGFR\'s, after K\'s own 4.8');
  t.ok(matchNumber('K 5.9 on 3/13', POTASSIUM).ok, '"3/13" is a date');
  const day = { value: 13, tolerance: { absolute: 0 }, near: ['k'], window: 30 };
  t.notOk(matchNumber('K 5.9 on 3/13', day).ok, 'the 13 of "3/13" is not a number near K');
  const year = { value: 2024, tolerance: { absolute: 0 } };
  t.notOk(matchNumber('A1c 8.4% on 2024-03-13', year).ok, 'nor the year of a date');
});

t.test('matchNumber: counts before their noun, spelled, or as "n of m"', async (t) => {
  const criteria = { value: 2, tolerance: { absolute: 0 }, fields: ['criteriaMet'], near: ['criteria'], window: 15 };
  for (const answer of ['2 criteria met', 'two of three criteria met', 'Criteria met: 2', '2 of 3 criteria']) t.ok(matchNumber(answer, criteria).ok, answer);
  t.notOk(matchNumber('criteria: 3 (age, weight, creatinine)', criteria).ok);
  t.notOk(matchNumber('3 criteria', criteria).ok);
  t.notOk(matchNumber('1 of 2 criteria', criteria).ok, 'the whole (2) is not the count');
  const years = { value: 12, tolerance: { absolute: 1 }, fields: ['years'], near: ['years'] };
  t.ok(matchNumber('Reaction 12 years ago; low risk.', years).ok);
  t.ok(matchNumber('twelve years ago', years).ok);
  t.notOk(matchNumber('eGFR 42 K 5.9', { value: 42, tolerance: { absolute: 0 }, near: ['k'] }).ok, 'a label before its own value does not take the number before it');
});

t.test('matchDate reads every way a date is written', async (t) => {
  t.ok(matchDate({ diagnosed: '04/20/2023' }, '2023-04-20', { fields: ['diagnosed'] }).ok, 'the review\'s "04/20/2023"');
  t.ok(matchDate('Diagnosed April 20, 2023.', '2023-04-20').ok);
  t.ok(matchDate('dx 20 Apr 2023', '2023-04-20T00:00:00Z').ok);
  t.notOk(matchDate('Diagnosed 2023-04-21', '2023-04-20').ok, 'the day after');
  t.notOk(matchDate('Diagnosed 04/02/2023', '2023-02-04').ok, 'US month-first: April 2, not 4 February');
  t.notOk(matchDate('Diagnosed Apr 2023', '2023-04-20').ok, 'a month is not the day');
  t.ok(matchDate('Diagnosed Apr 2023', '2023-04-20', { precision: 'month' }).ok);
});

t.test('matchFraction: "5/12 cores", "5 of 12", "five of twelve" are the same count', async (t) => {
  for (const answer of ['5/12 cores positive', '5 of 12 cores', 'five of twelve cores', '5 out of 12']) t.ok(matchFraction(answer, { numerator: 5, denominator: 12 }).ok, answer);
  t.notOk(matchFraction('12/12 cores', { numerator: 5, denominator: 12 }).ok);
  t.notOk(matchFraction('BP 140/90 mmHg', { numerator: 140, denominator: 90 }).ok, 'not a fraction');
});

const NSAID_QUESTION = {
  fields: ['prescribe', 'ok', 'okToPrescribe', 'ibuprofen'],
  yes: ['ok to prescribe', 'ibuprofen ordered', 'ordered ibuprofen', 'prescribed ibuprofen'],
  no: ['not ordered', 'not prescribed', 'do not prescribe', "don't prescribe", 'avoid', 'not ok', 'declined', 'no ibuprofen', 'not recommended'],
  subject: ['ibuprofen', 'NSAID'],
  except: ['topical NSAID'],
};

t.test('matchYesNo with a subject: the direction of the text, not its keywords', async (t) => {
  for (const answer of ['I would not prescribe ibuprofen', 'Recommend against ibuprofen', 'No – not safe here', 'Declined given CKD 3b on lisinopril.', 'Avoid NSAIDs; acetaminophen instead.']) {
    t.ok(matchYesNo(answer, false, NSAID_QUESTION).ok, answer);
  }
  const sneaky = matchYesNo('Not ordered by me – ibuprofen is reasonable, go ahead', false, NSAID_QUESTION);
  t.notOk(sneaky.ok, '"not ordered" next to a recommendation is no decline');
  t.match(sneaky.mismatches[0], /ambiguous/);
  t.notOk(matchYesNo('ibuprofen is not contraindicated', false, NSAID_QUESTION).ok);
  t.ok(matchYesNo('Ibuprofen 400 mg TID is fine.', true, NSAID_QUESTION).ok, 'the yes direction reads too');
  const avoid = { ...NSAID_QUESTION, fields: ['avoid'], yes: [], no: [], yesMeans: 'against' as const };
  t.ok(matchYesNo('Yes - not safe with CKD on lisinopril.', true, avoid).ok, '"should we avoid it?" - yes');
  t.notOk(matchYesNo('No, ibuprofen is fine.', true, avoid).ok);
});

t.test('matchYesNo: phrases are read with their negation', async (t) => {
  const goal = { fields: ['atGoal'], yes: ['at goal', 'controlled'], no: ['not at goal', 'above goal', 'uncontrolled'] };
  t.ok(matchYesNo('A1c 8.4%, not well controlled', false, goal).ok, '"controlled" under "not"');
  t.ok(matchYesNo("I don't think she is at goal", false, goal).ok);
  t.ok(matchYesNo('No, A1c 8.4%.', false, goal).ok, 'a leading no');
  t.notOk(matchYesNo('Yes - above goal', true, goal).ok, 'a leading yes against a no phrase is ambiguous');
  const start = { fields: ['startAnticoagulant'], yes: ['start anticoagulation'], no: ['already on', 'no new anticoagulant'] };
  t.ok(matchYesNo('No need to start anticoagulation - already on apixaban.', false, start).ok, 'once ambiguous: held "start anticoagulation"');
  const dxa = { fields: ['due'], yes: ['due', 'indicated'], no: ['not due', 'not indicated'] };
  t.ok(matchYesNo('DXA is not yet due', false, dxa).ok, '"not yet due" is not "due"');
});

t.test('matchYesNo: a structured field first, and its own prose must not contradict it', async (t) => {
  const testosterone = { fields: ['startTestosterone'], yes: ['start testosterone'], no: ['do not start', 'contraindicated'], subject: ['testosterone'] };
  t.ok(matchYesNo({ startTestosterone: false, reason: 'Testosterone therapy is contraindicated in prostate cancer' }, false, testosterone).ok);
  const contradicted = matchYesNo({ startTestosterone: false, plan: 'start testosterone cypionate 100 mg IM weekly' }, false, testosterone);
  t.notOk(contradicted.ok, 'the field says no, the plan starts it');
  t.match(contradicted.mismatches[0], /field says false but its text says true/);
  t.notOk(matchYesNo({ startTestosterone: true, plan: 'Start testosterone.' }, false, testosterone).ok, 'a consistent wrong answer still fails');
  const dxa = { fields: ['due'], yes: ['due'], no: ['not due'] };
  t.ok(matchYesNo({ due: false, comment: 'next DXA due in 2026' }, false, dxa).ok, 'yes/no phrases in prose are about other things too: the field decides');
  const goal = { fields: ['atGoal'], yes: ['at goal'], no: ['not at goal'] };
  t.ok(matchYesNo({ atGoal: 'no' }, false, goal).ok, '"no" in a field');
  t.notOk(matchYesNo({ atGoal: 'no' }, true, goal).ok);
});

t.test('matchRecommendation judges a note\'s recommendation, not its keywords', async (t) => {
  const subject = ['oxybutynin', 'antimuscarinic'];
  const right = 'Question: oxybutynin 5 mg BID?\nAssessment: strongly anticholinergic; Beers 2023 advises avoiding it in dementia on donepezil. Not ordered.\nPlan: mirabegron is preferred over antimuscarinics.';
  const wrong = 'Question: oxybutynin 5 mg BID?\nAssessment: anticholinergic, opposes donepezil (cholinesterase inhibitor), may worsen cognition in dementia.\nPlan: start oxybutynin 2.5 mg BID.';
  t.ok(matchRecommendation(right, { subject, expected: 'against' }).ok);
  const m = matchRecommendation(wrong, { subject, expected: 'against' });
  t.notOk(m.ok, 'the review\'s note recommending oxybutynin in dementia');
  t.match(m.mismatches[0], /recommends oxybutynin/);
  const note = { resourceType: 'DocumentReference' as const, status: 'current' as const, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(wrong).toString('base64') } }] };
  t.notOk(matchRecommendation(note, { subject, expected: 'against' }).ok, 'a DocumentReference is read from its attachment');
  t.match(matchRecommendation('Urge incontinence: prompted voiding.', { subject, expected: 'against' }).mismatches[0], /never names/);
  t.match(matchRecommendation('Oxybutynin was discussed.', { subject, expected: 'against' }).mismatches[0], /without recommending/);
  const hyperkalemia = 'K 5.9 mmol/L on lisinopril. Stop lisinopril. Start potassium chloride 20 mEq daily.';
  t.notOk(matchRecommendation(hyperkalemia, { subject: ['potassium chloride', 'KCl', 'potassium supplement'], expected: 'against' }).ok, 'the harmful add-on');
  t.ok(matchRecommendation(hyperkalemia, { subject: ['lisinopril'], expected: 'against' }).ok);
});

t.test('matchFieldAgreesWithProse: {startTestosterone: false} next to "start testosterone cypionate" fails', async (t) => {
  const expectation = { fields: ['startTestosterone'], subject: ['testosterone'] };
  const m = matchFieldAgreesWithProse({ startTestosterone: false, gleason: '3+4' }, { ...expectation, texts: ['Plan: start testosterone cypionate 100 mg IM weekly.'] });
  t.notOk(m.ok);
  t.match(m.mismatches[0], /text 1 says "start testosterone cypionate/);
  t.ok(matchFieldAgreesWithProse({ startTestosterone: false }, { ...expectation, texts: ['Question: start testosterone?\nRecommendation: do not start testosterone.'] }).ok);
  t.ok(matchFieldAgreesWithProse({ startTestosterone: true }, { ...expectation, texts: ['Start testosterone.'] }).ok);
  t.ok(matchFieldAgreesWithProse({ gleason: '3+4' }, { ...expectation, texts: ['Start testosterone.'] }).ok, 'no field, nothing to contradict');
  t.notOk(matchFieldAgreesWithProse('{"startTestosterone": false, "reason": "fine to start testosterone"}', expectation).ok, 'the answer\'s own prose');
});
