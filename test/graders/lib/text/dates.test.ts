import t from 'tap';
import { dateMatches, datesIn } from '../../../../graders/lib/text/dates.ts';

const read = (s: string) => datesIn(s).map((d) => [d.value, d.precision]);

t.test('datesIn reads ISO, US numeric and written dates', async (t) => {
  t.same(read('diagnosed 2023-04-20'), [['2023-04-20', 'day']]);
  t.same(read('2023-04-20T14:00:00Z'), [['2023-04-20', 'day']]);
  t.same(read('diagnosed 04/20/2023'), [['2023-04-20', 'day']], 'the review\'s "04/20/2023"');
  t.same(read('biopsy 4/20/23'), [['2023-04-20', 'day']]);
  t.same(read('April 20, 2023'), [['2023-04-20', 'day']]);
  t.same(read('20 Apr 2023'), [['2023-04-20', 'day']]);
  t.same(read('since Apr 2023'), [['2023-04', 'month']]);
  t.same(read('K 5.9 on 3/13'), [['--03-13', 'day']], 'a day of the current year after "on"');
});

t.test('datesIn checks the calendar', async (t) => {
  t.same(read('20/04/2023'), [['2023-04-20', 'day']], 'day-first when month-first is impossible');
  t.same(read('13/13/2023'), [], 'no such month either way');
  t.same(read('2/30/2023'), [], 'no 30 February');
  t.same(read('2024-02-29'), [['2024-02-29', 'day']], 'leap day');
  t.same(read('2023-02-29'), []);
  t.same(read('5/12 cores'), [], 'a bare slash pair is not a date');
});

t.test('dateMatches compares at the precision written', async (t) => {
  const [day] = datesIn('04/20/2023');
  const [month] = datesIn('Apr 2023');
  t.ok(dateMatches(day, '2023-04-20'));
  t.ok(dateMatches(day, '2023-04-20T09:30:00Z'), 'a FHIR dateTime');
  t.notOk(dateMatches(day, '2023-04-21'));
  t.notOk(dateMatches(month, '2023-04-20'), 'a month is not the day asked for');
  t.ok(dateMatches(month, '2023-04-20', 'month'), 'unless a month is enough');
  t.notOk(dateMatches(datesIn('on 4/20')[0], '2023-04-20'), 'a day without its year cannot be checked');
});
