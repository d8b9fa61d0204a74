import t from 'tap';
import { sentencesOf } from '../../../../graders/lib/text/clauses.ts';

t.test('sentences, reported sections and segments', async (t) => {
  const text = 'Question: start testosterone?\nAssessment: not recommended - contraindicated. Plan: avoid it, per AUA (2018).';
  const sentences = sentencesOf(text);
  const said = sentences.map((s) => [text.slice(s.start, s.end).trim(), s.reported, s.question]);
  t.same(said[0], ['start testosterone?', true, true], 'the quoted request is reported, and a question');
  t.same(said.slice(1).map((s) => s[1]), [false, false, false], 'a different section ends the reported one');
  const assessment = sentences[1];
  t.same(assessment.segments.map((g) => [text.slice(g.start, g.end).trim(), g.endsWith]), [['not recommended', '-'], ['contraindicated.', 'end']]);
  t.ok(sentences.some((s) => text.slice(s.start, s.end) === '2018'), 'a parenthesis is a sentence of its own');
});

t.test('a label that is content is kept', async (t) => {
  const text = 'Ibuprofen: avoid.';
  t.equal(sentencesOf(text, (label) => /ibuprofen/i.test(label))[0].start, 0);
  t.equal(sentencesOf(text)[0].start, 'Ibuprofen: '.length, 'otherwise it is a section name');
});

t.test('a header line opens a reported section for the lines under it', async (t) => {
  const text = 'Reason for consult:\nPCP asks to start oxybutynin.\nPlan:\nDo not start oxybutynin.';
  const s = sentencesOf(text);
  t.same(s.map((x) => x.reported), [true, false]);
});

t.test('"and I" starts a clause of its own; "be given" does not end one', async (t) => {
  const text = 'Patient requests ibuprofen and I declined. It should not be given.';
  const segments = sentencesOf(text).flatMap((s) => s.segments.map((g) => text.slice(g.start, g.end).trim()));
  t.same(segments, ['Patient requests ibuprofen', 'I declined.', 'It should not be given.']);
});
