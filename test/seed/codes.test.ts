import t from 'tap';
import { RXNORM_CONCEPTS, codeTables, lookupDisplay, RXNORM, codingOf, LOINC } from '../../seed/codes/index.ts';

t.test('every table is data with a system URL and non-empty displays', async (t) => {
  for (const table of codeTables) {
    t.match(table.system, /^(https?:\/\/|urn:)/, `${table.title} has a system URL`);
    for (const [code, display] of Object.entries(table.concepts)) {
      if (!code || !display.trim()) t.fail(`${table.title} ${code} has an empty code or display`);
    }
  }
});

t.test('RxNorm: clinical drugs relate to ingredient concepts held in the table', async (t) => {
  for (const [code, concept] of Object.entries(RXNORM_CONCEPTS)) {
    t.ok(concept.ingredients.length > 0, `${code} has ingredients`);
    for (const ingredient of concept.ingredients) {
      t.equal(RXNORM_CONCEPTS[ingredient]?.tty, 'IN', `${code} (${concept.display}) -> ${ingredient} is an ingredient`);
    }
    if (concept.tty === 'IN') t.same(concept.ingredients, [code]);
  }
  t.same(RXNORM_CONCEPTS['198335'].ingredients, ['10180', '10831'], 'a combination product has both ingredients');
});

t.test('codingOf refuses a code that is not in the table', async (t) => {
  t.same(codingOf(LOINC, '2823-3'), { system: 'http://loinc.org', code: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma' });
  t.throws(() => codingOf(RXNORM, '999999999'), /not in the RxNorm table/);
  t.equal(lookupDisplay('http://hl7.org/fhir/sid/icd-10-cm', 'E11.9'), 'Type 2 diabetes mellitus without complications');
  t.equal(lookupDisplay('http://hl7.org/fhir/sid/icd-10-cm', 'E11'), undefined);
});
