import t from 'tap';
import { expectedRoutes, routeInText, routeOf, routesOfDoseForm } from '../../../../graders/lib/dose/route.ts';

t.test('route words, abbreviations and SNOMED codes', async (t) => {
  t.same(routeOf({ route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006' }] } }).routes, ['oral']);
  t.same(routeOf({ route: { text: 'PO' } }).routes, ['oral'], 'PO is oral');
  t.same(routeOf({ route: { coding: [{ code: 'SQ' }] } }).routes, ['subcutaneous']);
  t.same(routeOf({ route: { coding: [{ system: 'http://snomed.info/sct', code: '47625008' }] } }).routes, ['intravenous']);
  t.same(routeOf({ text: 'inject 10 units subcut nightly' }).routes, ['subcutaneous']);
  t.same(routeOf({ text: '1 tab by mouth daily' }).routes, ['oral']);
  t.equal(routeInText('Do not stop taking it'), undefined, '"top" inside "stop" is not topical');
  t.equal(routeInText("I'm taking it"), undefined, '"I\'m" is not IM');
});

t.test('the dose form gives the route when the order states none', async (t) => {
  t.same(routesOfDoseForm(['lisinopril 10 MG Oral Tablet']), ['oral']);
  t.same(routesOfDoseForm(['Jardiance 10 mg tablet']), ['oral']);
  t.same(routesOfDoseForm(['tiotropium 0.018 MG Inhalation Powder']), ['inhaled']);
  t.same(routesOfDoseForm(['albuterol 0.09 MG/ACTUAT Metered Dose Inhaler']), ['inhaled']);
  t.same(routesOfDoseForm(['nitroglycerin 0.4 MG Sublingual Tablet']), ['sublingual'], 'sublingual, not oral');
  t.same(routesOfDoseForm(['insulin glargine 100 UNT/ML Injectable Solution']), ['subcutaneous', 'intravenous', 'intramuscular']);
  t.same(routesOfDoseForm(['penicillin V potassium 500 MG Oral Tablet']), ['oral'], '"pen" in penicillin is no pen injector');
  const stated = routeOf({ route: { text: 'IV' } }, ['lisinopril 10 MG Oral Tablet']);
  t.same(stated.routes, ['intravenous'], 'a stated route wins over the form');
  t.equal(routeOf({}, ['lisinopril 10 MG Oral Tablet']).from, 'dose form');
});

t.test('expected routes: codes and words name one route', async (t) => {
  t.same(expectedRoutes(['26643006', 'oral', 'po']).routes, ['oral', 'oral', 'oral']);
  t.same(expectedRoutes(['via G-tube']).literal, ['via g-tube'], 'unknown words are kept literally');
});
