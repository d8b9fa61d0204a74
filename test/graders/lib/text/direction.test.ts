import t from 'tap';
import { directionAbout, mentionsIn, readDirection, type Direction } from '../../../../graders/lib/text/direction.ts';

const NSAID = ['ibuprofen', 'NSAID'];
const question = { answersQuestion: true };

// [text, subject, expected, options?, why the keyword reading gets it wrong]
const table: [string, string[], Direction, object, string][] = [
  // The review's examples, verbatim.
  ['I would not prescribe ibuprofen', NSAID, 'against', question, 'holds "prescribe ibuprofen"'],
  ['Recommend against ibuprofen', NSAID, 'against', question, 'holds "recommend"'],
  ['No – not safe here', NSAID, 'against', question, 'names no drug at all'],
  ['Not ordered by me – ibuprofen is reasonable, go ahead', NSAID, 'recommend', question, 'holds "not ordered"'],
  // Negation scope.
  ['ibuprofen is not contraindicated', NSAID, 'recommend', {}, 'holds "contraindicated"'],
  ['Do not start testosterone.', ['testosterone'], 'against', {}, 'holds "start testosterone"'],
  ["I don't think we should start testosterone.", ['testosterone'], 'against', {}, 'the negation is four words before the verb'],
  ["Can't recommend ibuprofen given CKD 3b and lisinopril.", NSAID, 'against', {}, 'holds "recommend ibuprofen"'],
  ['Ibuprofen is not advised.', NSAID, 'against', {}, 'holds "advised"'],
  ['Ibuprofen is not recommended.', NSAID, 'against', {}, 'holds "recommended"'],
  ['Ibuprofen is not a good idea here.', NSAID, 'against', {}, ''],
  ["I'm not comfortable prescribing ibuprofen.", NSAID, 'against', {}, 'holds "prescribing ibuprofen"'],
  ['No NSAIDs.', NSAID, 'against', {}, 'a negated drug, no verb'],
  ['Not ibuprofen — acetaminophen.', NSAID, 'against', question, ''],
  ['Ibuprofen should not be given.', NSAID, 'against', {}, ''],
  ['No need to stop lisinopril.', ['lisinopril'], 'recommend', {}, 'holds "stop lisinopril"'],
  // Chains of verbs multiply.
  ['I would not recommend stopping lisinopril.', ['lisinopril'], 'recommend', {}, 'holds "stopping lisinopril"'],
  ['Stopping lisinopril is not recommended.', ['lisinopril'], 'recommend', {}, 'holds "stopping" and "not recommended"'],
  ['Starting testosterone is contraindicated.', ['testosterone'], 'against', {}, 'holds "starting testosterone"'],
  // A parenthesis restates the verb before it: no chain across it.
  ['Naproxen 500 mg tablet: STOPPED (discontinued in hospital - gastric ulcer; do not restart).', ['naproxen'], 'against', {}, '"stopped" x "discontinued" read as a double negative'],
  ['Ibuprofen: stop (not recommended with CKD).', NSAID, 'against', {}, '"stop" x "not recommended" read as a recommendation'],
  ['ibuprofen is best avoided', NSAID, 'against', {}, 'holds "best"'],
  ['NSAID use is not recommended', NSAID, 'against', {}, 'holds "use"'],
  ['ibuprofen is not safe and should be avoided', NSAID, 'against', {}, 'two negatives must not cancel across "and"'],
  // The thing set aside.
  ['rather than ibuprofen, use acetaminophen', NSAID, 'against', {}, 'holds "use"'],
  ['rather than ibuprofen, use acetaminophen', ['acetaminophen'], 'recommend', {}, ''],
  ['Recommend topical diclofenac rather than oral NSAIDs.', NSAID, 'against', {}, 'holds "recommend"'],
  ['Mirabegron is preferred over antimuscarinics.', ['oxybutynin', 'antimuscarinic'], 'against', {}, 'holds "preferred"'],
  ['Switch from ibuprofen to acetaminophen.', NSAID, 'against', {}, ''],
  ['Switch from ibuprofen to acetaminophen.', ['acetaminophen'], 'recommend', {}, ''],
  // Two verb phrases.
  ['Stop ibuprofen and start acetaminophen.', ['acetaminophen'], 'recommend', {}, '"stop" does not reach across "and start"'],
  ['Lisinopril was stopped and patiromer started.', ['patiromer'], 'recommend', {}, '"stopped" belongs to lisinopril'],
  ['Lisinopril was stopped and patiromer started.', ['lisinopril'], 'against', {}, ''],
  ['Ibuprofen and naproxen are contraindicated.', NSAID, 'against', {}, ''],
  // Plain directions.
  ['continue lisinopril', ['lisinopril'], 'recommend', {}, ''],
  ["I'd hold off on testosterone", ['testosterone'], 'against', {}, 'holds "testosterone" and no negation'],
  ['Hold lisinopril and recheck potassium in 3 days.', ['lisinopril'], 'against', {}, ''],
  ['Lisinopril held; K 5.9 mmol/L.', ['lisinopril'], 'against', {}, ''],
  ['Discontinue lisinopril.', ['lisinopril'], 'against', {}, ''],
  ['Start potassium chloride 20 mEq daily.', ['potassium chloride', 'KCl'], 'recommend', {}, 'the harmful add-on after stopping an ACE inhibitor for K 5.9'],
  ['Ibuprofen: avoid.', NSAID, 'against', {}, 'a label judged by the next clause'],
  ['Gleason 3+3 (score 6). Testosterone therapy: not recommended (contraindicated with prostate cancer).', ['testosterone'], 'against', {}, 'a parenthesis after the verb is not its object'],
  ['Testosterone - not recommended.', ['testosterone'], 'against', {}, ''],
  ['Ibuprofen, in my opinion, is not advised.', NSAID, 'against', {}, ''],
  ['Ibuprofen 400 mg TID is fine.', NSAID, 'recommend', {}, ''],
  ['Safe to take ibuprofen.', NSAID, 'recommend', {}, ''],
  ['Not a candidate for testosterone.', ['testosterone'], 'against', {}, ''],
  // Whose words.
  ['The patient has been taking ibuprofen OTC.', NSAID, 'unclear', {}, 'history, not advice'],
  ['The PCP asks whether to start testosterone.', ['testosterone'], 'unclear', {}, 'the asker\'s words hold "start testosterone"'],
  ['Question: start testosterone cypionate 100 mg IM weekly?\nRecommendation: do not start testosterone.', ['testosterone'], 'against', {}, 'the quoted request holds "start testosterone"'],
  ['Request for testosterone declined.', ['testosterone'], 'against', {}, ''],
  ['Patient requests ibuprofen for knee pain. Declined given CKD.', NSAID, 'against', {}, 'the verdict names no drug'],
  ['Patient requests ibuprofen for knee pain and I declined.', NSAID, 'against', {}, ''],
  ['Ibuprofen was requested. I would not prescribe it.', NSAID, 'against', {}, 'a pronoun'],
  ['It is reasonable to use acetaminophen.', NSAID, 'absent', question, 'a dummy "it" is not the drug'],
  ['Acetaminophen is recommended for pain.', NSAID, 'absent', {}, ''],
  // Both ways, and contingencies.
  ['No. Ibuprofen is reasonable.', NSAID, 'unclear', question, ''],
  ['Avoid ibuprofen. If needed, ibuprofen is fine.', NSAID, 'unclear', {}, '"if needed" is no condition'],
  ['Testosterone is contraindicated in prostate cancer per guidelines; however the symptoms are significant, so start testosterone cypionate 100 mg IM weekly.', ['testosterone'], 'unclear', {}, 'the right keywords next to the wrong advice'],
  ['Continue lisinopril; if K rises above 5.5, hold it.', ['lisinopril'], 'recommend', {}, 'a safety net is not the plan'],
  ['Continue lisinopril; it may raise potassium.', ['lisinopril'], 'recommend', {}, 'a stated risk is weaker than advice'],
  ['Ibuprofen would worsen kidney function.', NSAID, 'against', {}, ''],
  ['Lisinopril: hold until K < 5.0, then consider restarting at 5 mg.', ['lisinopril'], 'against', {}, 'a label, and a verb followed by "until" has no object'],
  ["I didn't order ibuprofen; it is reasonable though.", NSAID, 'recommend', {}, 'a report of what was not done is weaker than advice'],
  ['Step up to medium-dose ICS-formoterol.', ['ICS-formoterol'], 'recommend', {}, ''],
  ['There is no contraindication to ibuprofen.', NSAID, 'recommend', {}, 'holds "contraindication"'],
  ['There is no role for ibuprofen.', NSAID, 'against', {}, ''],
  ['Ibuprofen is not something I would recommend.', NSAID, 'against', {}, 'holds "recommend"'],
  ['The patient would like to continue ibuprofen; I advised against it.', NSAID, 'against', {}, 'the patient\'s wish holds "continue ibuprofen"'],
  ['As requested, I have ordered ibuprofen.', NSAID, 'recommend', {}, 'holds "requested"'],
  // Short answers to the question.
  ['Declined.', NSAID, 'against', question, ''],
  ['I would not.', NSAID, 'against', question, ''],
  ['Yes, go ahead.', NSAID, 'recommend', question, ''],
  ['Ibuprofen? No.', NSAID, 'against', question, ''],
  ['Ok to prescribe ibuprofen', NSAID, 'recommend', question, ''],
  ['Prescribed ibuprofen 400 mg TID.', NSAID, 'recommend', question, ''],
];

for (const [text, subject, expected, options, why] of table) {
  t.test(`${JSON.stringify(text)} about ${subject[0]}: ${expected}${why ? ` (${why})` : ''}`, async (t) => {
    const reading = readDirection(text, subject, options);
    t.equal(reading.direction, expected, JSON.stringify(reading.statements.map((s) => [s.text, s.direction, s.strong, s.why])));
  });
}

t.test('except: a topical NSAID is not the oral NSAID the question is about', async (t) => {
  const text = 'Topical NSAID is reasonable; avoid oral NSAIDs.';
  t.equal(directionAbout(text, NSAID), 'unclear', 'without except both mentions count');
  t.equal(directionAbout(text, NSAID, { except: ['topical NSAID'] }), 'against');
});

t.test('a weak statement ("not ordered") decides only when nothing strong is said', async (t) => {
  const r = readDirection('Recommendation: ibuprofen not prescribed. Use acetaminophen.', NSAID);
  t.equal(r.direction, 'against');
  t.same(r.statements.map((s) => s.strong), [false]);
});

t.test('mentionsIn: whole words, plurals, longest first, except phrases', async (t) => {
  const text = 'NSAIDs, ibuprofenate, topical NSAID gel, testosterone cypionate';
  t.same(mentionsIn(text, ['NSAID', 'ibuprofen']).map((m) => text.slice(m.start, m.end)), ['NSAIDs', 'NSAID']);
  t.same(mentionsIn(text, ['NSAID'], ['topical NSAID']).map((m) => text.slice(m.start, m.end)), ['NSAIDs']);
  t.same(mentionsIn(text, ['testosterone']).map((m) => text.slice(m.start, m.end)), ['testosterone']);
});

t.test('the direction is read in notes, not only one-liners', async (t) => {
  const dementiaRight = [
    'GERIATRICS E-CONSULT NOTE',
    "Patient: 81-year-old with Alzheimer's disease on donepezil 10 mg daily.",
    'Question: oxybutynin 5 mg BID for new urge incontinence.',
    'Assessment: oxybutynin is strongly anticholinergic - AGS Beers Criteria 2023 advise avoiding it in dementia (worsens cognition, delirium risk) and it directly opposes donepezil. Not ordered.',
    'Plan: urinalysis and post-void residual; prompted voiding. If drug therapy is still needed, mirabegron is preferred over antimuscarinics.',
  ].join('\n');
  t.equal(directionAbout(dementiaRight, ['oxybutynin', 'antimuscarinic']), 'against');
  // The review's harmful note: every keyword a grader looked for, and the wrong plan.
  const dementiaWrong = [
    'Question: oxybutynin 5 mg BID for new urge incontinence.',
    'Assessment: Alzheimer disease on donepezil (cholinesterase inhibitor). Oxybutynin is anticholinergic and can worsen cognition and delirium risk.',
    'Plan: start oxybutynin 2.5 mg BID, the lowest dose; recheck in 4 weeks.',
  ].join('\n');
  t.equal(directionAbout(dementiaWrong, ['oxybutynin', 'antimuscarinic']), 'recommend');
});
