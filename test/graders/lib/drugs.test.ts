// Drug recognition: a medication is its ingredients whatever RxNorm code or name it is written with, and never a
// neighbouring drug. The tempting wrong answers are the ones a substring or a same-class guess would give.
import t from 'tap';
import type { CodeableConcept } from '@medplum/fhirtypes';
import { drugIngredientNames, drugIngredients, drugName, ingredientByName } from '../../../graders/lib/drugs.ts';
import { isMedication, rxnormIngredients } from '../../../graders/lib/codings.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const coded = (code: string, display?: string, text?: string): CodeableConcept => ({ coding: [{ system: RXNORM, code, ...(display ? { display } : {}) }], ...(text ? { text } : {}) });
const textOnly = (text: string): CodeableConcept => ({ text });

const EMPAGLIFLOZIN = '1545653';
const DAPAGLIFLOZIN = '1488564';
const LOSARTAN = '52175';
const HCTZ = '5487';
const LISINOPRIL = '29046';
const APIXABAN = '1364430';
const RIVAROXABAN = '1114195';

t.test('any RxNorm term type gives the ingredients', async (t) => {
  const cases: [string, string, string[]][] = [
    ['IN', EMPAGLIFLOZIN, [EMPAGLIFLOZIN]],
    ['PIN warfarin sodium', '114194', ['11289']],
    ['BN Eliquis', '1364436', [APIXABAN]],
    ['BN Xarelto', '1114199', [RIVAROXABAN]],
    ['SCD empagliflozin 10 MG', '1545658', [EMPAGLIFLOZIN]],
    ['SBD Jardiance 10 MG', '1545664', [EMPAGLIFLOZIN]],
    ['SBD Farxiga 10 MG', '1486977', [DAPAGLIFLOZIN]],
    ['SCDC dabigatran etexilate 150 MG', '1037043', ['1037042']],
    ['SCD combination hydrochlorothiazide / losartan', '979468', [HCTZ, LOSARTAN]],
    ['SCD sacubitril / valsartan', '1656349', ['1656328', '69749']],
    ['SBD Trelegy (three ingredients)', '1945048', ['41126', '1487514', '1424884']],
  ];
  for (const [label, code, expected] of cases) t.same(drugIngredients(coded(code)), expected, label);
});

t.test('names in text: generic, brand, salt, shorthand, any case, whole words', async (t) => {
  const cases: [string, string[]][] = [
    ['Jardiance 10 mg tablet', [EMPAGLIFLOZIN]],
    ['empagliflozin', [EMPAGLIFLOZIN]],
    ['EMPAGLIFLOZIN 10MG TAB', [EMPAGLIFLOZIN]],
    ['Farxiga 10 mg daily', [DAPAGLIFLOZIN]],
    ['lisinopril-hydrochlorothiazide 20-12.5', [LISINOPRIL, HCTZ]],
    ['losartan/HCTZ 50/12.5', [LOSARTAN, HCTZ]],
    ['Hyzaar 100-25', [LOSARTAN, HCTZ]],
    ['Aleve 220 mg PRN', ['7258']],
    ['Advil 400 mg', ['5640']],
    ['Xarelto 20 mg with supper', [RIVAROXABAN]],
    ['ASA 81 mg daily', ['1191']],
    ['metoprolol succinate ER 25 mg', ['6918']],
    ['insulin lispro protamine 75/25', ['86009']],
    ['Exforge HCT 10/320/25', ['17767', '69749', HCTZ]],
    ['TMP-SMX DS 1 tab BID', ['10180', '10831']],
    ['metformin 500 mg - see sig', ['6809']],
  ];
  for (const [text, expected] of cases) t.same(drugIngredients(textOnly(text)), expected, text);
});

t.test('the tempting wrong answers', async (t) => {
  t.notOk(drugIngredients(textOnly('Farxiga 10 mg')).includes(EMPAGLIFLOZIN), 'Farxiga is dapagliflozin, not empagliflozin');
  t.notOk(drugIngredients(coded('1486977')).includes(EMPAGLIFLOZIN), 'nor is its SBD');
  t.notOk(drugIngredients(textOnly('Xarelto 20 mg')).includes(APIXABAN), 'Xarelto is not apixaban');
  t.notOk(drugIngredients(coded('1114199')).includes(APIXABAN), 'nor is its BN');
  t.same(drugIngredients(textOnly('sasa 81 mg')), [], '"ASA" is not matched inside "sasa"');
  t.same(drugIngredients(textOnly('nonmetformin diet')), [], '"metformin" is not matched inside a longer word');
  t.same(drugIngredients(textOnly('potassium 5.9 mmol/L')), [], '"potassium" alone is a lab, not potassium chloride');
  t.same(drugIngredients(textOnly('losartan potassium 50 mg')), [LOSARTAN], 'a losartan salt is not a potassium supplement');
  t.same(drugIngredients(textOnly('prednisolone 5 mg')), ['8638'], 'prednisolone is not prednisone');
  t.same(drugIngredients(textOnly('an unknown drug 10 mg')), []);
});

t.test('a held code wins over free text; without one, the displays and text are read', async (t) => {
  t.same(drugIngredients(coded('1488569', undefined, 'Jardiance')), [DAPAGLIFLOZIN], 'the code (dapagliflozin 10 MG) decides');
  t.same(drugIngredients(coded('99999999', 'Farxiga 10 mg tablet')), [DAPAGLIFLOZIN], 'an unknown code: its display is read');
  t.same(drugIngredients({ coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '00310621030', display: 'Farxiga 10 MG Oral Tablet' }] }), [DAPAGLIFLOZIN], 'an NDC coding: its display');
  t.same(drugIngredients({ coding: [{ system: 'http://snomed.info/sct', code: EMPAGLIFLOZIN }] }), [], 'an RXCUI-looking code of another system is not RxNorm');
  t.same(drugIngredients(undefined, 'Eliquis 5 mg BID'), [APIXABAN], 'text alone');
  t.same(drugIngredients(undefined), []);
});

t.test('ingredients known by name only have names but no RXCUI', async (t) => {
  t.same(drugIngredientNames(textOnly('Qulipta 60 mg daily')), ['atogepant']);
  t.same(drugIngredients(textOnly('Qulipta 60 mg daily')), [], 'no invented code');
  t.same(drugIngredients(textOnly('Aimovig 70 mg monthly')), ['2045613'], 'erenumab: its code read from the NLM export');
  t.same(drugIngredients(textOnly('Stiolto Respimat 2 puffs daily')), ['1546059', '69120'], 'Stiolto: olodaterol and tiotropium');
  t.same(drugIngredientNames(textOnly('glycopyrrolate 1 mg BID')), ['glycopyrronium'], 'the US name is the RxNorm ingredient glycopyrronium');
  t.same(drugIngredients(textOnly('Veltassa 8.4 g daily')), ['1716203'], 'patiromer: its code read from the NLM export');
  t.same(drugIngredientNames(textOnly('Lokelma 10 g TID')), ['sodium zirconium cyclosilicate']);
  t.same(drugIngredientNames(coded('1364436')), ['apixaban'], 'coded: the RxNorm names');
});

t.test('ingredientByName and drugName', async (t) => {
  t.equal(ingredientByName('spironolactone'), '9997');
  t.equal(ingredientByName('Aldactone'), '9997', 'single-ingredient brand');
  t.equal(ingredientByName('HCTZ'), HCTZ, 'shorthand');
  t.equal(ingredientByName('dabigatran'), '1037042', 'the RxNorm ingredient is dabigatran etexilate');
  t.equal(ingredientByName('Losartan Potassium'), LOSARTAN, 'a salt, any case');
  t.equal(ingredientByName('Hyzaar'), undefined, 'a combination brand is not one ingredient');
  t.equal(ingredientByName('atogepant'), undefined, 'known by name only');
  t.equal(ingredientByName('erenumab'), '2045613');
  t.equal(ingredientByName('glycopyrrolate'), '1546438', 'the PIN name finds the IN glycopyrronium');
  t.equal(ingredientByName('potassium'), undefined);
  t.equal(drugName(EMPAGLIFLOZIN), 'empagliflozin');
  t.equal(drugName('1545664'), 'empagliflozin 10 MG Oral Tablet [Jardiance]');
  t.equal(drugName('99999999'), undefined);
});

t.test('codings.ts: rxnormIngredients and isMedication recognise brands, SBDs, combinations and text-only drugs', async (t) => {
  t.same(rxnormIngredients(coded('1545664')), [EMPAGLIFLOZIN], 'SBD');
  t.same(rxnormIngredients(textOnly('Zestoretic 20-12.5')), [LISINOPRIL, HCTZ], 'text-only combination brand');
  t.same(rxnormIngredients(coded('1945039')), ['1945039'], 'a code the table does not hold still stands for itself');
  t.same(rxnormIngredients(coded('1487518')), ['1487514', '1424884'], 'the umeclidinium / vilanterol MIN is both ingredients');
  t.ok(isMedication(coded('1546356'), { ingredients: ['1037042'] }), '1546356 "dabigatran" is dabigatran etexilate');
  t.ok(isMedication(textOnly('Farxiga 10 mg'), { ingredients: [DAPAGLIFLOZIN] }));
  t.notOk(isMedication(textOnly('Farxiga 10 mg'), { ingredients: [EMPAGLIFLOZIN] }), 'Farxiga is not empagliflozin');
  t.ok(isMedication(coded('1364447'), { ingredients: [APIXABAN] }), 'Eliquis SBD is apixaban');
  t.notOk(isMedication(coded('2059017'), { ingredients: [APIXABAN] }), 'Xarelto SBD is not apixaban');
  t.ok(isMedication(coded('979468'), { ingredients: [LOSARTAN] }) && isMedication(coded('979468'), { ingredients: [HCTZ] }), 'losartan/HCTZ is both');
  t.ok(isMedication(coded('314076'), { codes: ['314076'] }), 'exact code');
});

t.test('dabigatran: the ingredient 1037042 and the code 1546356 charts still carry are the same drug', async (t) => {
  t.same(drugIngredients(coded('1546356')), ['1037042'], '1546356 "dabigatran" is read as dabigatran etexilate');
  t.same(drugIngredients(coded('1546356', 'dabigatran')), drugIngredients(coded('1037042')));
  t.same(drugIngredientNames(coded('1546356')), ['dabigatran etexilate']);
  t.equal(drugName('1546356'), 'dabigatran etexilate');
  t.notOk(drugIngredients(coded('1546356')).includes(APIXABAN), 'not another anticoagulant');
  t.same(drugIngredients(coded('1546355')), [], 'a neighbouring number is not dabigatran');
});

t.test('COPD: umeclidinium alone is not the umeclidinium / vilanterol combination', async (t) => {
  const UMEC = '1487514';
  const VILANTEROL = '1424884';
  t.same(drugIngredients(coded(UMEC)), [UMEC], 'the IN is umeclidinium alone');
  t.same(drugIngredients(coded('1487518')), [UMEC, VILANTEROL], 'the MIN is both');
  t.same(drugIngredients(coded('1487524')), [UMEC, VILANTEROL], 'Anoro 7-dose SBD is both');
  t.same(drugIngredients(coded('1596445')), [UMEC], 'Incruse 7-dose SBD is umeclidinium alone');
  t.same(drugIngredients(textOnly('Anoro Ellipta 1 inhalation daily')), [UMEC, VILANTEROL]);
  t.same(drugIngredients(textOnly('Incruse Ellipta')), [UMEC]);
});

t.test('antibiotics: each cephalosporin and penicillin is itself, by code, brand and name', async (t) => {
  const cases: [string, CodeableConcept, string[]][] = [
    ['cefixime IN', coded('25033'), ['25033']],
    ['Suprax SBD', coded('1372999'), ['25033']],
    ['Suprax by name', textOnly('Suprax 400 mg daily'), ['25033']],
    ['cefprozil SCD', coded('197453'), ['19552']],
    ['Cefzil', textOnly('Cefzil 500 mg BID'), ['19552']],
    ['cefadroxil SCD', coded('309049'), ['2177']],
    ['cefaclor SCD', coded('197449'), ['2176']],
    ['cefaclor ER', coded('309043'), ['2176']],
    ['cefazolin', textOnly('cefazolin 2 g IV q8h'), ['2180']],
    ['cefuroxime 125', coded('309095'), ['2194']],
    ['dicloxacillin SCD', coded('197596'), ['3356']],
    ['ampicillin SCD', coded('308212'), ['733']],
    ['penicillin G potassium', coded('863538'), ['7980']],
    ['penicillin V potassium solution', coded('834040'), ['7984']],
    ['Pen VK', textOnly('Pen VK 500 mg QID'), ['7984']],
    ['clindamycin 75', coded('309329'), ['2582']],
    ['metronidazole 250', coded('314106'), ['6922']],
    ['nitrofurantoin suspension', coded('311989'), ['7454']],
    ['amoxicillin / clavulanate', coded('562508'), ['723', '48203']],
  ];
  for (const [label, concept, expected] of cases) t.same(drugIngredients(concept), expected, label);
  t.notOk(drugIngredients(coded('309049')).includes('2176'), 'cefadroxil is not cefaclor');
  t.notOk(drugIngredients(textOnly('cefixime 400 mg')).includes('25037'), 'cefixime is not cefdinir');
  t.notOk(drugIngredients(textOnly('Unasyn 3 g IV')).includes('723'), 'Unasyn (ampicillin) is not amoxicillin');
});

t.test('antibiotics read from the NLM export: by brand, shorthand and name', async (t) => {
  t.same(drugIngredientNames(textOnly('Zosyn 4.5 g IV q6h')), ['piperacillin', 'tazobactam']);
  t.same(drugIngredientNames(textOnly('pip-tazo 3.375 g')), ['piperacillin', 'tazobactam']);
  t.same(drugIngredients(textOnly('Zosyn 4.5 g IV q6h')), ['8339', '37617'], 'both ingredients of the Zosyn BN');
  t.same(drugIngredients(coded('1659149')), ['8339', '37617'], 'the piperacillin / tazobactam SCD');
  t.same(drugIngredientNames(textOnly('Unasyn 3 g IV')), ['ampicillin', 'sulbactam']);
  t.same(drugIngredients(textOnly('Unasyn 3 g IV')), ['733', '10167'], 'ampicillin and sulbactam');
  t.same(drugIngredientNames(textOnly('vancomycin 125 mg PO QID')), ['vancomycin']);
  t.same(drugIngredients(textOnly('Zyvox 600 mg BID')), ['190376'], 'linezolid');
  t.same(drugIngredients(textOnly('Monurol 3 g once')), ['4550'], 'fosfomycin: Monurol is a name-only brand');
  t.same(drugIngredients(textOnly('nafcillin 2 g IV q4h')), ['7233']);
  t.same(drugIngredients(textOnly('oxacillin 2 g IV q4h')), ['7773']);
  t.equal(ingredientByName('linezolid'), '190376', 'read from the NLM export');
  t.equal(ingredientByName('vancomycin'), '11124', 'read from the NLM export');
  t.equal(ingredientByName('Unasyn'), undefined, 'a combination brand is not one ingredient');
});

t.test('a local formulary coding names its drug by its code, for drugs without an RxNorm code here', async (t) => {
  const { FORMULARY } = await import('../../../seed/codes/formulary.ts');
  t.same(drugIngredientNames({ coding: [{ system: FORMULARY.system, code: 'atogepant' }] }), ['atogepant']);
  t.same(drugIngredientNames({ coding: [{ system: 'http://example.org/other', code: 'atogepant' }] }), [], 'another system\'s code is not a name');
});
