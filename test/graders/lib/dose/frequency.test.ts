import t from 'tap';
import { frequencyFromText, isAsNeeded, timesPerDay } from '../../../../graders/lib/dose/frequency.ts';

t.test('sig abbreviations and phrasings, as administrations per day', async (t) => {
  const table: [string, number][] = [
    ['BID', 2], ['b.i.d.', 2], ['twice daily', 2], ['twice a day', 2], ['q12h', 2], ['Q 12 H', 2], ['every 12 hours', 2],
    ['daily', 1], ['once a day', 1], ['once daily', 1], ['QD', 1], ['q.d.', 1], ['QAM', 1], ['QHS', 1], ['at bedtime', 1], ['nightly', 1], ['every morning', 1],
    ['TID', 3], ['three times a day', 3], ['3 times daily', 3], ['q8h', 3], ['QID', 4], ['q6h', 4], ['every 4-6 hours', 6],
    ['2x/day', 2], ['weekly', 1 / 7], ['once weekly', 1 / 7], ['twice a week', 2 / 7], ['every other day', 0.5], ['QOD', 0.5], ['monthly', 1 / 30],
  ];
  for (const [text, perDay] of table) t.equal(frequencyFromText(`take 1 tablet by mouth ${text}`), perDay, text);
});

t.test('the tempting misreadings', async (t) => {
  t.equal(frequencyFromText('take 1 tab BID x 7 days, then daily'), 2, 'the first frequency, not the most frequent word');
  t.equal(frequencyFromText('1 tab twice daily'), 2, '"twice daily" is not "daily"');
  t.equal(frequencyFromText('take 2 daily'), 1, 'two tablets once a day, not twice a day');
  t.equal(frequencyFromText('take 1 tablet for 7 d'), undefined, 'a duration is not a frequency');
  t.equal(frequencyFromText('QHS'), 1, 'at bedtime is once a day');
  t.equal(frequencyFromText('as directed'), undefined);
});

t.test('structured timing first: repeat, when, then the timing code', async (t) => {
  t.equal(timesPerDay({ timing: { repeat: { frequency: 1, period: 12, periodUnit: 'h' } } }), 2);
  t.equal(timesPerDay({ timing: { repeat: { frequency: 1, period: 1, periodUnit: 'wk' } } }), 1 / 7);
  t.equal(timesPerDay({ timing: { repeat: { period: 8, periodUnit: 'h' } } }), 3, 'a period alone is once per period');
  t.equal(timesPerDay({ timing: { repeat: { when: ['HS'] } } }), 1);
  t.equal(timesPerDay({ timing: { repeat: { when: ['ACM', 'ACV'] } } }), 2);
  t.equal(timesPerDay({ timing: { code: { coding: [{ code: 'Q12H' }] } } }), 2);
  t.equal(timesPerDay({ timing: { code: { coding: [{ code: 'QHS' }] } } }), 1);
  t.equal(timesPerDay({ timing: { code: { text: 'twice daily' } } }), 2);
  t.equal(timesPerDay({ timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, text: 'BID' }), 1, 'the structured timing wins over the text');
  t.equal(timesPerDay({ patientInstruction: 'one tablet every 8 hours' }), 3);
});

t.test('as-needed dosages: the element, a PRN timing code or the sig text; a schedule is not', async (t) => {
  t.ok(isAsNeeded({ asNeededBoolean: true }));
  t.ok(isAsNeeded({ asNeededCodeableConcept: { text: 'heartburn' } }));
  t.ok(isAsNeeded({ timing: { code: { coding: [{ code: 'PRN' }] } } }));
  for (const text of ['Take 1 tablet by mouth as needed for heartburn', '20 mg PRN', '2 puffs p.r.n. wheeze', 'on-demand for reflux', 'reliever: 1-2 puffs', 'rescue inhaler']) t.ok(isAsNeeded({ text }), text);
  for (const text of ['Take 1 tablet by mouth daily', '20 mg every morning before breakfast', 'Inhale 2 puffs twice daily']) t.notOk(isAsNeeded({ text }), text);
  t.notOk(isAsNeeded(undefined));
  t.notOk(isAsNeeded({ asNeededBoolean: false, text: 'once daily' }), 'asNeededBoolean false with a schedule');
});
