// The curated RxNorm table: the generator's codes are unchanged, every relation is consistent, normalized names are
// read right, and the name index refuses a name that would stand for two drugs.
import t from 'tap';
import { RXNORM, RXNORM_CONCEPTS, RXNORM_DRUG_NAMES, heldRxcui, ingredientsOf, rxcuiOfIngredient } from '../../seed/codes/rxnorm.ts';
import { componentsOfName, brandOfName, genericOfName } from '../../seed/codes/rxnorm/model.ts';
import { DrugNameIndex, nameTokens } from '../../seed/codes/rxnorm/names.ts';
import { UNCODED_INGREDIENTS } from '../../seed/codes/rxnorm/brands.ts';

// The table as it was before the vocabulary grew: the population generator emits these, so they must not change.
const LEGACY: Record<string, [string, 'IN' | 'SCD', string[]?]> = {
  6809: ['metformin', 'IN'], 29046: ['lisinopril', 'IN'], 17767: ['amlodipine', 'IN'], 5487: ['hydrochlorothiazide', 'IN'],
  52175: ['losartan', 'IN'], 83367: ['atorvastatin', 'IN'], 301542: ['rosuvastatin', 'IN'], 11289: ['warfarin', 'IN'],
  1364430: ['apixaban', 'IN'], 6918: ['metoprolol', 'IN'], 20352: ['carvedilol', 'IN'], 4603: ['furosemide', 'IN'],
  9997: ['spironolactone', 'IN'], 10582: ['levothyroxine', 'IN'], 6835: ['methimazole', 'IN'], 435: ['albuterol', 'IN'],
  41126: ['fluticasone', 'IN'], 69120: ['tiotropium', 'IN'], 36437: ['sertraline', 'IN'], 321988: ['escitalopram', 'IN'],
  42351: ['lithium carbonate', 'IN'], 46041: ['alendronate', 'IN'], 519: ['allopurinol', 'IN'], 2683: ['colchicine', 'IN'],
  24947: ['ferrous sulfate', 'IN'], 4821: ['glipizide', 'IN'], 1545653: ['empagliflozin', 'IN'], 274783: ['insulin glargine', 'IN'],
  7646: ['omeprazole', 'IN'], 77492: ['tamsulosin', 'IN'], 37418: ['sumatriptan', 'IN'], 114477: ['levetiracetam', 'IN'],
  135447: ['donepezil', 'IN'], 5521: ['hydroxychloroquine', 'IN'], 6851: ['methotrexate', 'IN'], 52582: ['mesalamine', 'IN'],
  1191: ['aspirin', 'IN'], 32968: ['clopidogrel', 'IN'], 723: ['amoxicillin', 'IN'], 10180: ['sulfamethoxazole', 'IN'],
  10831: ['trimethoprim', 'IN'], 2231: ['cephalexin', 'IN'], 5640: ['ibuprofen', 'IN'], 8640: ['prednisone', 'IN'],
  6218: ['lactulose', 'IN'], 1433868: ['dolutegravir', 'IN'],
  314076: ['lisinopril 10 MG Oral Tablet', 'SCD', ['29046']], 314077: ['lisinopril 20 MG Oral Tablet', 'SCD', ['29046']],
  197361: ['amlodipine 5 MG Oral Tablet', 'SCD', ['17767']], 310798: ['hydrochlorothiazide 25 MG Oral Tablet', 'SCD', ['5487']],
  979492: ['losartan potassium 50 MG Oral Tablet', 'SCD', ['52175']], 979480: ['losartan potassium 100 MG Oral Tablet', 'SCD', ['52175']],
  855332: ['warfarin sodium 5 MG Oral Tablet', 'SCD', ['11289']], 1364445: ['apixaban 5 MG Oral Tablet', 'SCD', ['1364430']],
  1364435: ['apixaban 2.5 MG Oral Tablet', 'SCD', ['1364430']],
  866427: ['24 HR metoprolol succinate 25 MG Extended Release Oral Tablet', 'SCD', ['6918']],
  866436: ['24 HR metoprolol succinate 50 MG Extended Release Oral Tablet', 'SCD', ['6918']],
  200031: ['carvedilol 6.25 MG Oral Tablet', 'SCD', ['20352']], 200032: ['carvedilol 12.5 MG Oral Tablet', 'SCD', ['20352']],
  313988: ['furosemide 40 MG Oral Tablet', 'SCD', ['4603']], 313096: ['spironolactone 25 MG Oral Tablet', 'SCD', ['9997']],
  308191: ['amoxicillin 500 MG Oral Capsule', 'SCD', ['723']],
  198335: ['sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet', 'SCD', ['10180', '10831']],
  309114: ['cephalexin 500 MG Oral Capsule', 'SCD', ['2231']],
};

t.test('the codes the generator emits keep their display, term type and ingredients', async (t) => {
  for (const [code, [display, tty, ingredients]] of Object.entries(LEGACY)) {
    const c = RXNORM_CONCEPTS[code];
    t.equal(c?.display, display, `${code} display`);
    t.equal(RXNORM.concepts[code], display, `${code} in the code table`);
    t.equal(c?.tty, tty, `${code} term type`);
    t.same(c?.ingredients, ingredients ?? [code], `${code} ingredients`);
  }
});

t.test('every relation points at a concept of the right term type', async (t) => {
  const tty = (code: string) => RXNORM_CONCEPTS[code]?.tty;
  const count: Record<string, number> = {};
  for (const [code, c] of Object.entries(RXNORM_CONCEPTS)) {
    count[c.tty] = (count[c.tty] ?? 0) + 1;
    for (const i of c.ingredients) if (tty(i) !== 'IN') t.fail(`${code} "${c.display}": ingredient ${i} is not an IN`);
    if (c.tty === 'IN' && (c.ingredients.length !== 1 || c.ingredients[0] !== code)) t.fail(`IN ${code} is not its own ingredient`);
    if (c.tty === 'PIN' && (tty(c.formOf!) !== 'IN' || c.ingredients[0] !== c.formOf)) t.fail(`PIN ${code} is not a form of an IN`);
    if (c.tty === 'MIN' && (c.ingredients.length < 2 || c.display !== c.ingredients.map((i) => RXNORM_CONCEPTS[i].display).join(' / '))) t.fail(`MIN ${code} does not name its ingredients`);
    if (c.generic) {
      const scd = RXNORM_CONCEPTS[c.generic];
      if (c.tty !== 'SBD' || scd.tty !== 'SCD' || scd.ingredients.join() !== c.ingredients.join()) t.fail(`SBD ${code} -> SCD ${c.generic} disagree`);
      if (genericOfName(c.display) !== scd.display) t.fail(`SBD ${code} is not a brand of ${scd.display}`);
    }
    if (c.brand) {
      const bn = RXNORM_CONCEPTS[c.brand];
      if (bn.tty !== 'BN' || brandOfName(c.display) !== bn.display || [...bn.ingredients].sort().join() !== [...c.ingredients].sort().join()) t.fail(`SBD ${code} -> BN ${c.brand} disagree`);
    }
    for (const component of c.components ?? []) {
      const scdc = RXNORM_CONCEPTS[component];
      if (scdc.tty !== 'SCDC' || !scdc.ingredients.every((i) => c.ingredients.includes(i))) t.fail(`${code} -> SCDC ${component} disagree`);
    }
    for (const s of c.strengths ?? []) if (!c.ingredients.includes(s.ingredient) || !(s.value > 0)) t.fail(`${code}: strength ${JSON.stringify(s)}`);
    if (['SCD', 'SBD', 'SCDC'].includes(c.tty) && !c.strengths?.length) t.fail(`${code} has no strength`);
  }
  t.ok(count.IN >= 200 && count.SCD >= 400 && count.SBD >= 30 && count.BN >= 15 && count.PIN >= 5 && count.SCDC >= 5, JSON.stringify(count));
  t.equal(RXNORM_CONCEPTS['1545664'].generic, '1545658', 'Jardiance 10 mg is a brand of empagliflozin 10 MG Oral Tablet');
  t.equal(RXNORM_CONCEPTS['1364447'].brand, '1364436', 'the Eliquis SBD names the Eliquis BN');
  t.same(RXNORM_CONCEPTS['1037045'].components, ['1037043']);
  t.same(RXNORM_CONCEPTS['1945047'].ingredients, ['41126', '1487514', '1424884'], 'fluticasone furoate is fluticasone');
});

t.test('normalized names: components, strengths, brand', async (t) => {
  const cases: [string, [string, number, string][]][] = [
    ['lisinopril 10 MG Oral Tablet', [['lisinopril', 10, 'MG']]],
    ['24 HR metoprolol succinate 25 MG Extended Release Oral Tablet', [['metoprolol succinate', 25, 'MG']]],
    ['hydrochlorothiazide 12.5 MG / losartan potassium 50 MG Oral Tablet', [['hydrochlorothiazide', 12.5, 'MG'], ['losartan potassium', 50, 'MG']]],
    ['0.4 ML enoxaparin sodium 100 MG/ML Prefilled Syringe [Lovenox]', [['enoxaparin sodium', 100, 'MG/ML']]],
    ['penicillin V potassium 500 MG Oral Tablet', [['penicillin V potassium', 500, 'MG']]],
    ['nitrofurantoin, macrocrystals 50 MG Oral Capsule', [['nitrofurantoin, macrocrystals', 50, 'MG']]],
    ['0.25 MG, 0.5 MG Dose 1.5 ML semaglutide 1.34 MG/ML Pen Injector', [['semaglutide', 1.34, 'MG/ML']]],
    ['Osmotic 24 HR nifedipine 30 MG Extended Release Oral Tablet', [['nifedipine', 30, 'MG']]],
    ['30 ACTUAT umeclidinium 0.0625 MG/ACTUAT / vilanterol 0.025 MG/ACTUAT Dry Powder Inhaler [Anoro]', [['umeclidinium', 0.0625, 'MG/ACTUAT'], ['vilanterol', 0.025, 'MG/ACTUAT']]],
  ];
  for (const [name, expected] of cases) t.same(componentsOfName(name).map((c) => [c.substance, c.value, c.unit]), expected, name);
  t.equal(brandOfName('empagliflozin 10 MG Oral Tablet [Jardiance]'), 'Jardiance');
  t.equal(brandOfName('empagliflozin 10 MG Oral Tablet'), undefined);
  t.equal(genericOfName('apixaban 5 MG Oral Tablet [Eliquis]'), 'apixaban 5 MG Oral Tablet');
});

t.test('the name index: whole words, longest name first, one meaning per name', async (t) => {
  t.same(nameTokens('Lisinopril-HCTZ 20/12.5'), ['lisinopril', 'hctz', '20', '12', '5']);
  const index = new DrugNameIndex();
  index.add('insulin lispro', ['insulin lispro']);
  index.add('lispro', ['insulin lispro']);
  index.add('Exforge', ['amlodipine', 'valsartan']);
  index.add('Exforge HCT', ['amlodipine', 'valsartan', 'hydrochlorothiazide']);
  t.same(index.find('Exforge HCT 5/160/12.5'), ['amlodipine', 'valsartan', 'hydrochlorothiazide'], 'the longer brand wins');
  t.same(index.find('Exforge 5/160'), ['amlodipine', 'valsartan']);
  t.same(index.find('insulin lispro protamine'), ['insulin lispro']);
  t.same(index.exact('EXFORGE'), ['amlodipine', 'valsartan']);
  t.equal(index.exact('Exforge HCT 5'), undefined, 'exact means the whole name');
  t.doesNotThrow(() => index.add('Exforge', ['valsartan', 'amlodipine']), 'the same meaning again is fine');
  t.throws(() => index.add('exforge', ['amlodipine']), /stands for/, 'one name, two meanings: refused');
  t.throws(() => index.add(' - ', ['x']), /no words/);
});

t.test('the table names every ingredient the way clinicians write it', async (t) => {
  t.equal(rxcuiOfIngredient('Dapagliflozin'), '1488564');
  t.equal(rxcuiOfIngredient('patiromer'), '1716203', 'read from the NLM ingredient export');
  t.same(RXNORM_DRUG_NAMES.find('Symbicort 160/4.5 2 puffs BID'), ['budesonide', 'formoterol']);
  t.same(RXNORM_DRUG_NAMES.find('Kayexalate 15 g'), ['sodium polystyrene sulfonate']);
  t.same(RXNORM_DRUG_NAMES.find('KCl 20 mEq'), ['potassium chloride']);
});

t.test('antibiotic ingredients read from the NLM tree, and their products', async (t) => {
  const ins: Record<string, string> = { 25033: 'cefixime', 19552: 'cefprozil', 2177: 'cefadroxil', 2176: 'cefaclor', 2180: 'cefazolin', 20481: 'cefepime' };
  for (const [code, name] of Object.entries(ins)) {
    t.equal(RXNORM_CONCEPTS[code]?.display, name, `${code} is ${name}`);
    t.equal(rxcuiOfIngredient(name), code);
  }
  t.same(RXNORM_CONCEPTS['409823'].ingredients, ['25033'], 'cefixime 400 MG Oral Capsule');
  t.equal(RXNORM_CONCEPTS['1372999'].generic, '409823', 'the Suprax SBD is a brand of the cefixime SCD');
  t.equal(RXNORM_CONCEPTS['1372999'].brand, '196499', 'and names the Suprax BN');
  t.same(RXNORM_CONCEPTS['863538'].ingredients, ['7980'], 'penicillin G potassium is penicillin G');
  t.equal(rxcuiOfIngredient('vancomycin'), '11124', 'vancomycin read from the NLM export (V.json)');
  t.same(RXNORM_CONCEPTS['201848'].ingredients, ['11124'], 'vancomycin 125 MG Oral Capsule [Vancocin]');
  t.same(RXNORM_DRUG_NAMES.find('Zosyn 4.5 g'), ['piperacillin', 'tazobactam']);
  t.same(RXNORM_CONCEPTS['74170'], { display: 'Zosyn', tty: 'BN', ingredients: ['8339', '37617'] }, 'Zosyn is a BN of both ingredients');
  t.same(RXNORM_CONCEPTS['74169'], { display: 'piperacillin / tazobactam', tty: 'MIN', ingredients: ['8339', '37617'] });
  t.same(RXNORM_CONCEPTS['57773'], { display: 'Unasyn', tty: 'BN', ingredients: ['733', '10167'] }, 'Unasyn is ampicillin and sulbactam');
  t.same(RXNORM_CONCEPTS['1659592'].ingredients, ['733', '10167'], 'ampicillin 1000 MG / sulbactam 500 MG Injection');
  t.same(RXNORM_DRUG_NAMES.exact('Monurol'), ['fosfomycin'], 'fosfomycin has no BN in the export: Monurol is a name');
  t.ok(RXNORM_CONCEPTS['4550'].synonyms?.includes('Monurol'), 'and a synonym of the fosfomycin IN');
});

t.test('ingredients not read from a source are known by name and brand, never given a code', async (t) => {
  for (const name of ['aclidinium', 'apalutamide', 'atogepant', 'fluoxymesterone', 'nandrolone', 'oxymetholone', 'eletriptan', 'ciclesonide']) {
    t.ok(name in UNCODED_INGREDIENTS, `${name}: no source for the IN, no current US product, or not read yet`);
  }
  for (const [name, brands] of Object.entries(UNCODED_INGREDIENTS)) {
    t.equal(rxcuiOfIngredient(name), undefined, `${name}: no code read from a source, none invented`);
    t.same(RXNORM_DRUG_NAMES.exact(name), [name], `${name} is known by name`);
    for (const brand of brands) t.same(RXNORM_DRUG_NAMES.exact(brand), [name], `${brand} is ${name}`);
  }
});

// Read from the NLM ingredient export (davidanderson3/rxnorm-ingredients web/data/<letter>.json): each ingredient's IN
// row, the BN of its SBDs, and one SCD/SBD pair under it.
const READ_FROM_NLM: [ingredient: string, rxcui: string, brand: string, bn: string, scd: string, sbd: string][] = [
  ['patiromer', '1716203', 'Veltassa', '1716210', '1716209', '1716215'],
  ['sodium zirconium cyclosilicate', '2047628', 'Lokelma', '2047634', '2047642', '2053927'],
  ['sodium polystyrene sulfonate', '56512', 'Kionex', '284757', '313072', '793741'],
  ['rimegepant', '2282307', 'Nurtec', '2282314', '2282313', '2282320'],
  ['zavegepant', '2637955', 'Zavzpret', '2637975', '2637974', '2637980'],
  ['revefenacin', '2102775', 'Yupelri', '2102780', '2102779', '2102784'],
  ['vibegron', '2472254', 'Gemtesa', '2472316', '2472315', '2472321'],
  ['relugolix', '2472778', 'Orgovyx', '2472784', '2472783', '2472789'],
  ['vancomycin', '11124', 'Vancocin', '202368', '313570', '201848'],
  ['theophylline', '10438', 'Theo-24', '203388', '313310', '844591'],
  ['tezepelumab', '2587789', 'Tezspire', '2587796', '2587803', '2587806'],
];

// Read from the same export with a BN of the ingredient alone (or none) and one SCD, no SBD.
const READ_FROM_NLM_SCD: [ingredient: string, rxcui: string, brand: string | undefined, bn: string | undefined, scd: string][] = [
  ['erenumab', '2045613', 'Aimovig', '2045628', '2045627'],
  ['eptinezumab', '2282660', 'Vyepti', '2283050', '2283049'],
  ['fremanezumab', '2056691', 'Ajovy', '2056696', '2056695'],
  ['galcanezumab', '2058846', 'Emgality', '2058873', '2058872'],
  ['olodaterol', '1546059', 'Striverdi', '1546064', '1546082'],
  ['glycopyrronium', '1546438', 'Lonhala', '1992567', '197738'],
  ['levalbuterol', '237159', 'Xopenex', '261702', '311286'],
  ['omalizumab', '302379', 'Xolair', '356767', '1657209'],
  ['mepolizumab', '1720597', 'Nucala', '1720602', '1720601'],
  ['benralizumab', '1989100', 'Fasenra', '1989105', '1989104'],
  ['dupilumab', '1876376', 'Dupixent', '1876402', '1876401'],
  ['trospium', '236778', undefined, undefined, '857560'],
  ['bempedoic acid', '2282403', 'Nexletol', '2282409', '2282408'],
  ['icosapent ethyl', '1304974', 'Vascepa', '1304980', '1304979'],
  ['pegloticase', '1011650', 'Krystexxa', '1011654', '1011653'],
  ['darolutamide', '2180325', 'Nubeqa', '2180331', '2180330'],
  ['triptorelin', '38782', 'Trelstar', '905054', '199821'],
  ['histrelin', '50975', 'Supprelin', '220125', '1740437'],
  ['flutamide', '4508', 'Eulexin', '151668', '197726'],
  ['nilutamide', '31805', 'Nilandron', '218741', '311982'],
  ['oxandrolone', '7779', undefined, undefined, '198056'],
  ['teriparatide', '32915', 'Forteo', '352657', '1435115'],
  ['abaloparatide', '1921069', undefined, undefined, '1921075'],
  ['nafcillin', '7233', undefined, undefined, '1721458'],
  ['oxacillin', '7773', undefined, undefined, '1743547'],
  ['linezolid', '190376', 'Zyvox', '261710', '311347'],
  ['fosfomycin', '4550', undefined, undefined, '808917'],
];

t.test('ingredients read from the NLM export: IN, BN and products linked', async (t) => {
  for (const [ingredient, rxcui, brand, bn, scd, sbd] of READ_FROM_NLM) {
    t.equal(rxcuiOfIngredient(ingredient), rxcui, `${ingredient} is ${rxcui}`);
    t.same(RXNORM_CONCEPTS[bn], { display: brand, tty: 'BN', ingredients: [rxcui] }, `${brand} is a BN of ${ingredient}`);
    t.same(RXNORM_CONCEPTS[scd].ingredients, [rxcui], `SCD ${scd} is ${ingredient}`);
    t.equal(RXNORM_CONCEPTS[sbd].generic, scd, `SBD ${sbd} is a brand of SCD ${scd}`);
    t.equal(RXNORM_CONCEPTS[sbd].brand, bn, `SBD ${sbd} names ${brand}`);
  }
  t.same(RXNORM_DRUG_NAMES.exact('Kayexalate'), ['sodium polystyrene sulfonate'], 'a brand with no BN code read: a name only');
  t.same(RXNORM_DRUG_NAMES.exact('SZC'), ['sodium zirconium cyclosilicate']);
  t.equal(rxcuiOfIngredient('romosozumab'), '2123126');
  t.equal(RXNORM_CONCEPTS['2123186'].display, 'Evenity');
  for (const [ingredient, rxcui, brand, bn, scd] of READ_FROM_NLM_SCD) {
    t.equal(rxcuiOfIngredient(ingredient), rxcui, `${ingredient} is ${rxcui}`);
    t.same([RXNORM_CONCEPTS[rxcui].display, RXNORM_CONCEPTS[rxcui].tty], [ingredient, 'IN'], `${rxcui} is the IN ${ingredient}`);
    if (bn) t.same(RXNORM_CONCEPTS[bn], { display: brand, tty: 'BN', ingredients: [rxcui] }, `${brand} is a BN of ${ingredient}`);
    t.same(RXNORM_CONCEPTS[scd].ingredients, [rxcui], `SCD ${scd} "${RXNORM_CONCEPTS[scd].display}" is ${ingredient}`);
  }
});

t.test('glycopyrrolate: the IN is glycopyrronium, the US name its PIN; both names find it', async (t) => {
  t.same(RXNORM_CONCEPTS['4955'], { display: 'glycopyrrolate', tty: 'PIN', ingredients: ['1546438'], formOf: '1546438' });
  t.same(RXNORM_DRUG_NAMES.exact('glycopyrrolate'), ['glycopyrronium']);
  t.ok(RXNORM_CONCEPTS['1546438'].synonyms?.includes('glycopyrrolate'), 'a synonym of the IN, so a search by either name returns it');
  t.same(RXNORM_DRUG_NAMES.exact('Seebri'), ['glycopyrronium'], 'Seebri has no current SBD: a name');
  t.same(RXNORM_CONCEPTS['1790640'], { display: 'Bevespi', tty: 'BN', ingredients: ['25255', '1546438'] }, 'Bevespi: formoterol and glycopyrronium');
  t.same(RXNORM_CONCEPTS['2387325'].ingredients, ['19831', '25255', '1546438'], 'Breztri: budesonide, formoterol, glycopyrronium');
});

t.test('combination brands are brands of every ingredient; brands of other drugs are not listed', async (t) => {
  t.same(RXNORM_CONCEPTS['1651267'], { display: 'Stiolto', tty: 'BN', ingredients: ['1546059', '69120'] }, 'Stiolto: olodaterol and tiotropium');
  t.same(RXNORM_CONCEPTS['1944780'], { display: 'Duzallo', tty: 'BN', ingredients: ['519', '1731031'] }, 'Duzallo: allopurinol and lesinurad');
  t.same(RXNORM_CONCEPTS['1944779'].ingredients, ['519', '1731031']);
  t.same(RXNORM_CONCEPTS['2283229'], { display: 'bempedoic acid / ezetimibe', tty: 'MIN', ingredients: ['2282403', '341248'] });
  t.same(RXNORM_CONCEPTS['2283231'].ingredients, ['2282403', '341248'], 'Nexlizet');
  t.same(RXNORM_CONCEPTS['2587790'], { display: 'tezepelumab-ekko', tty: 'PIN', ingredients: ['2587789'], formOf: '2587789' });
  t.same(RXNORM_CONCEPTS['38891'].formOf, '236778', 'trospium chloride is trospium');
  t.same(RXNORM_DRUG_NAMES.exact('Sanctura'), ['trospium']);
  t.equal(RXNORM_DRUG_NAMES.exact('Cobenfy'), undefined, 'Cobenfy (trospium with xanomeline) is not a trospium brand');
  t.equal(RXNORM_DRUG_NAMES.exact('Yorvipath'), undefined, 'Yorvipath (palopegteriparatide) is not teriparatide');
  t.same(RXNORM_DRUG_NAMES.exact('Tymlos'), ['abaloparatide'], 'no BN code read: a name');
});

t.test('umeclidinium / vilanterol is a MIN of both ingredients; umeclidinium alone is the IN', async (t) => {
  t.same(RXNORM_CONCEPTS['1487518'], { display: 'umeclidinium / vilanterol', tty: 'MIN', ingredients: ['1487514', '1424884'] });
  t.same(RXNORM_CONCEPTS['1487514'].ingredients, ['1487514']);
  t.same(RXNORM_CONCEPTS['1487519'].ingredients, ['1487514', '1424884'], 'Anoro 7-dose SCD');
});

t.test('1546356 "dabigatran" is read as dabigatran etexilate without becoming a concept of its own', async (t) => {
  t.equal(RXNORM_CONCEPTS['1546356'], undefined, 'not served as a concept (the current tree has no such IN)');
  t.equal(RXNORM.concepts['1546356'], undefined);
  t.equal(heldRxcui('1546356'), '1037042');
  t.same(ingredientsOf('1546356'), ['1037042']);
  t.equal(heldRxcui('1037045'), '1037045', 'a held code stands for itself');
  t.equal(heldRxcui('1546357'), undefined);
});
