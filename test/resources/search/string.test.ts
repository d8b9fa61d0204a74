// String search (FHIR R4 3.1.1.4.7): case- and accent-insensitive starts-with by default, :exact, :contains,
// HumanName and Address match on any part.
import t from 'tap';
import { patient, searchApp } from './fixtures.ts';

const people = [
  patient('muller', { name: [{ family: 'Müller', given: ['Hans', 'Peter'] }], address: [{ city: 'Zürich', line: ['1 Bahnhofstrasse'] }] }),
  patient('mullins', { name: [{ family: 'Mullins', given: ['Ann'] }], address: [{ city: 'Boston', postalCode: '02110' }] }),
  patient('samuel', { name: [{ family: 'Samuel', given: ['Eve'] }] }),
  patient('noname', { gender: 'female' }),
];

t.test('default string search is a case- and accent-insensitive starts-with, not a contains', async (t) => {
  const { idSet } = await searchApp(t, people);
  t.same(await idSet('Patient?family=mul'), ['muller', 'mullins'], 'MÜLLER and Mullins start with "mul"');
  t.same(await idSet('Patient?family=MUELLER'), [], 'no transliteration, only accents removed');
  t.same(await idSet('Patient?family=muller'), ['muller'], 'accent-insensitive');
  t.same(await idSet('Patient?family=uel'), [], '"Samuel" contains but does not start with "uel"');
});

t.test(':contains and :exact', async (t) => {
  const { idSet } = await searchApp(t, people);
  t.same(await idSet('Patient?family:contains=uel'), ['samuel']);
  t.same(await idSet('Patient?family:contains=ULL'), ['muller', 'mullins']);
  t.same(await idSet('Patient?family:exact=Müller'), ['muller']);
  t.same(await idSet('Patient?family:exact=müller'), [], ':exact is case-sensitive');
  t.same(await idSet('Patient?family:exact=Mull'), [], ':exact is not starts-with');
});

t.test('name and address match any part', async (t) => {
  const { idSet } = await searchApp(t, people);
  t.same(await idSet('Patient?name=peter'), ['muller'], 'a second given name');
  t.same(await idSet('Patient?name=ann'), ['mullins']);
  t.same(await idSet('Patient?address=zur'), ['muller'], 'city, accent-insensitive');
  t.same(await idSet('Patient?address=1 bahnhof'), ['muller'], 'a line');
  t.same(await idSet('Patient?address-postalcode=021'), ['mullins']);
});

t.test('comma is OR, a repeated parameter is AND', async (t) => {
  const { idSet } = await searchApp(t, people);
  t.same(await idSet('Patient?family=samuel,mullins'), ['mullins', 'samuel']);
  t.same(await idSet('Patient?name=mul&name=ann'), ['mullins'], 'both must hold');
  t.same(await idSet('Patient?name=samuel&name=ann'), []);
});

t.test(':missing', async (t) => {
  const { idSet } = await searchApp(t, people);
  t.same(await idSet('Patient?name:missing=true'), ['noname']);
  t.same(await idSet('Patient?name:missing=false'), ['muller', 'mullins', 'samuel']);
  const { get } = await searchApp(t, []);
  t.equal((await get('Patient?name:missing=maybe')).status, 400);
});
