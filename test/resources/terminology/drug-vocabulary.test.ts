// The drug vocabulary as an agent meets it: the gym's terminology_search / terminology_lookup tools and
// ValueSet/$expand over HTTP find every drug by generic name, brand name and combination, with RxNorm's relations.
// The tempting wrong answers are the neighbours: Farxiga is dapagliflozin (not empagliflozin), Xarelto is rivaroxaban
// (not apixaban).
import t from 'tap';
import { startGym } from '../../server/gym/gym-harness.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
type Match = { system: string; code: string; display: string };

t.test('terminology_search, terminology_lookup and $expand serve the drug vocabulary', async (t) => {
  const gym = await startGym(t);
  const session = await gym.createSession({ now: '2024-03-15T14:00:00Z' });
  const tool = async (name: string, args: unknown): Promise<any> => {
    const res = await gym.json('POST', `/gym/sessions/${session.id}/tools/${name}`, args, { 'content-type': 'application/json' });
    t.equal(res.status, 200, `${name} answered`);
    t.equal(res.body.isError, false, res.body.text);
    return JSON.parse(res.body.text);
  };
  const search = async (query: string, system?: string): Promise<Match[]> =>
    ((await tool('terminology_search', { query, count: 20, ...(system ? { system } : {}) })).matches as Match[]);
  const rxnormCodes = (matches: Match[]) => matches.filter((m) => m.system === RXNORM).map((m) => m.code);

  t.test('generic names: the ingredient comes first, its products follow', async (t) => {
    for (const [query, ingredient] of [['dapagliflozin', '1488564'], ['empagliflozin', '1545653'], ['budesonide', '19831'], ['doxycycline', '3640']]) {
      const codes = rxnormCodes(await search(query));
      t.equal(codes[0], ingredient, `${query} -> ${ingredient} first`);
    }
    const doxy = rxnormCodes(await search('doxycycline', RXNORM));
    t.ok(doxy.includes('1650143'), 'doxycycline hyclate 100 MG Oral Tablet (SCD) is found by the generic name');
  });

  t.test('brand names: Farxiga is dapagliflozin, Jardiance is empagliflozin, Xarelto is rivaroxaban', async (t) => {
    const farxiga = rxnormCodes(await search('Farxiga'));
    t.equal(farxiga[0], '1488564', 'Farxiga -> dapagliflozin (brand known by name)');
    t.ok(farxiga.includes('1486977'), 'and the Farxiga branded drug');
    t.notOk(farxiga.includes('1545653'), 'not empagliflozin');
    const jardiance = rxnormCodes(await search('Jardiance'));
    t.same(jardiance.slice(0, 2), ['1545653', '1545664'], 'Jardiance -> empagliflozin, then the Jardiance 10 mg SBD');
    t.notOk(jardiance.includes('1488564'), 'not dapagliflozin');
    const xarelto = rxnormCodes(await search('Xarelto'));
    t.equal(xarelto[0], '1114199', 'Xarelto is a brand-name (BN) concept');
    t.notOk(xarelto.includes('1364430') || xarelto.includes('1364436'), 'not apixaban, not Eliquis');
  });

  t.test('combinations: by their parts, by abbreviation and by brand', async (t) => {
    t.ok(rxnormCodes(await search('losartan HCTZ', RXNORM)).includes('979468'), 'losartan HCTZ -> hydrochlorothiazide 12.5 MG / losartan potassium 50 MG');
    t.ok(rxnormCodes(await search('sacubitril valsartan', RXNORM)).includes('1656349'), 'sacubitril / valsartan 49/51');
    t.same(rxnormCodes(await search('Symbicort', RXNORM)).sort(), ['19831', '25255'], 'Symbicort -> budesonide and formoterol');
    t.ok(rxnormCodes(await search('Augmentin', RXNORM)).includes('723'), 'Augmentin -> amoxicillin (and clavulanate)');
  });

  t.test('terminology_lookup shows the relations', async (t) => {
    const sbd = await tool('terminology_lookup', { system: RXNORM, code: '1545664' });
    t.equal(sbd.display, 'empagliflozin 10 MG Oral Tablet [Jardiance]');
    t.equal(sbd.properties.TTY, 'SBD');
    t.equal(sbd.properties.has_ingredient.code, '1545653');
    t.equal(sbd.properties.tradename_of.code, '1545658', 'an SBD is a brand of its SCD');
    const bn = await tool('terminology_lookup', { system: RXNORM, code: '1364436' });
    t.equal(bn.properties.TTY, 'BN');
    t.equal(bn.properties.tradename_of.code, '1364430', 'Eliquis is a brand of apixaban');
    t.equal(bn.properties.brand_name_of.code, '1364447');
    const pin = await tool('terminology_lookup', { system: RXNORM, code: '114194' });
    t.equal(pin.properties.form_of.code, '11289', 'warfarin sodium is a form of warfarin');
    const scd = await tool('terminology_lookup', { system: RXNORM, code: '1037045' });
    t.equal(scd.properties.consists_of.code, '1037043', 'the SCD consists of its component');
    t.equal(scd.properties.strength, 'dabigatran etexilate 150 MG');
    const ingredient = await tool('terminology_lookup', { system: RXNORM, code: '1488564' });
    t.ok(ingredient.synonyms.includes('Farxiga'), 'the brand known by name is a synonym of the ingredient');
  });

  t.test('ValueSet/$expand over HTTP with a filter', async (t) => {
    const expand = async (filter: string) => {
      const res = await gym.json('GET', `/fhir/ValueSet/$expand?url=${encodeURIComponent(`${RXNORM}?fhir_vs`)}&filter=${encodeURIComponent(filter)}&count=50`);
      t.equal(res.status, 200);
      return (res.body.expansion.contains ?? []).map((c: { code: string }) => c.code) as string[];
    };
    t.ok((await expand('Xarelto')).includes('2059017'), 'the Xarelto 2.5 mg SBD');
    t.notOk((await expand('Xarelto')).includes('1364447'), 'no Eliquis SBD');
    t.same((await expand('Eliquis')).slice(0, 2), ['1364436', '1364447']);
    t.ok((await expand('Farxiga')).includes('1486981'), 'Farxiga 5 mg');
    t.ok((await expand('budesonide')).includes('19831'));
    t.equal((await expand('metformin'))[0], '6809');
  });
});
