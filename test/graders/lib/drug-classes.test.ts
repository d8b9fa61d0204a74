// Drug classes: membership where the tempting reading is wrong - low-dose aspirin is no NSAID, a diclofenac gel is
// no systemic NSAID, "losartan potassium" and "penicillin V potassium" are no potassium supplements, a nasal
// fluticasone is no ICS, ophthalmic atropine is not Beers-anticholinergic, low-dose doxepin is not either.
import t from 'tap';
import type { MedicationRequest } from '@medplum/fhirtypes';
import {
  classesNamedIn, classNamesIn, classesOf, classesOfOrder, CLASS_GROUPS, conceptIs, dailyMg, DRUG_CLASSES, expandClass, ingredientNamesOf, isKnownClass, mentionsDrug,
  namesInTextFor, orderInClass, routeKindOf,
} from '../../../graders/lib/drug-classes.ts';
import { RXNORM } from '../../../graders/lib/codings.ts';

const text = (s: string) => ({ text: s });
const rx = (code: string, display?: string) => ({ coding: [{ system: RXNORM, code, ...(display ? { display } : {}) }] });

function order(concept: MedicationRequest['medicationCodeableConcept'], dose?: { value: number; unit: string }, perDay = 1, route?: string): MedicationRequest {
  return {
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: 'Patient/p1' }, medicationCodeableConcept: concept,
    dosageInstruction: [{
      ...(route ? { route: { text: route } } : {}),
      timing: { repeat: { frequency: perDay, period: 1, periodUnit: 'd' } },
      ...(dose ? { doseAndRate: [{ doseQuantity: dose }] } : {}),
    }],
  };
}

t.test('every class cites a source and lists lower-case generic names; groups name real classes', async (t) => {
  for (const c of DRUG_CLASSES.values()) {
    t.ok(c.source.length > 10, `${c.id} cites a source`);
    t.ok(c.ingredients.length > 0 && c.ingredients.every((i) => i === i.toLowerCase()), `${c.id} members`);
  }
  for (const [group, members] of Object.entries(CLASS_GROUPS)) t.ok(members.every((m) => DRUG_CLASSES.has(m)), group);
  t.ok(isKnownClass('systemic-antibiotic') && isKnownClass('statin') && !isKnownClass('statins'));
  t.same(expandClass('raas-blocker'), ['ace-inhibitor', 'arb', 'arni', 'renin-inhibitor']);
});

t.test('recognition: RxNorm SCD or ingredient, brand, text', async (t) => {
  t.same(ingredientNamesOf(rx('314076')), ['lisinopril'], 'SCD from the seed table');
  t.same(ingredientNamesOf(rx('999999', 'Atorvastatin 40 MG Oral Tablet')), ['atorvastatin'], 'unknown code: the display');
  t.same(ingredientNamesOf(text('Veltassa 8.4 g packet')), ['patiromer']);
  t.same(ingredientNamesOf(text('KCl 20 mEq ER tablet')), ['potassium chloride']);
  t.same(ingredientNamesOf(text('losartan potassium 50 mg')), ['losartan'], 'a salt name is not potassium chloride');
  t.same(ingredientNamesOf(text('Penicillin G benzathine 2.4 million units IM')).sort(), ['penicillin g', 'penicillin g benzathine'], 'the salt form and its base');
  t.same(ingredientNamesOf(text('hyoscyamine 0.125 mg SL')), ['hyoscyamine'], 'a Beers drug the terminology vocabulary lacks');
  t.same(ingredientNamesOf(rx('314076', 'atorvastatin 40 MG Oral Tablet')), ['lisinopril'], 'a held code wins over a contradicting display');
  t.same(ingredientNamesOf(text('Augmentin 875/125')).sort(), ['amoxicillin', 'clavulanate']);
  t.same(ingredientNamesOf(text('heating pad')), []);
});

t.test('classes of a concept alone', async (t) => {
  t.same(classesOf(rx('314076')), ['ace-inhibitor']);
  t.same(classesOf(text('Entresto 24/26 mg')).sort(), ['arb', 'arni']);
  t.same(classesOf(text('sacubitril/valsartan')).sort(), ['arb', 'arni']);
  t.same(classesOf(text('aspirin 81 MG chewable tablet')), ['antiplatelet'], 'low-dose aspirin is antiplatelet only');
  t.same(classesOf(text('aspirin')), ['antiplatelet'], 'aspirin of unknown dose is not counted as an NSAID');
  t.same(classesOf(text('aspirin 650 mg')).sort(), ['antiplatelet', 'nsaid']);
  t.same(classesOf(text('penicillin V potassium 500 mg')), ['penicillin'], 'no potassium supplement');
  t.same(classesOf(text('cefdinir 300 mg')), ['cephalosporin-3']);
  t.same(classesOf(text('oxybutynin ER 5 mg')), ['strong-anticholinergic']);
  t.same(classesOf(text('mirabegron 25 mg')), ['beta3-agonist']);
  t.same(classesOf(text('patiromer')), ['potassium-binder']);
  t.same(classesOf(text('Prolia 60 mg SC q6 months')), ['osteoporosis-therapy'], 'denosumab: no bisphosphonate, an osteoporosis drug');
  t.same(classesOf(text('Fosamax 70 mg weekly')).sort(), ['bisphosphonate', 'osteoporosis-therapy']);
});

t.test('route and dose decide membership for an order', async (t) => {
  t.ok(orderInClass(order(text('ibuprofen 400 mg tablet'), { value: 400, unit: 'mg' }, 3), 'nsaid'));
  t.notOk(orderInClass(order(text('diclofenac sodium 1% gel'), { value: 4, unit: 'g' }, 4, 'topical'), 'nsaid'), 'topical NSAID');
  t.notOk(orderInClass(order(text('aspirin'), { value: 81, unit: 'mg' }), 'nsaid'), '81 mg/day');
  t.ok(orderInClass(order(text('aspirin'), { value: 650, unit: 'mg' }, 4), 'nsaid'), '2600 mg/day');
  t.notOk(orderInClass(order(text('fluticasone propionate 50 mcg nasal spray'), { value: 2, unit: 'spray' }, 1), 'ics'), 'intranasal');
  t.ok(orderInClass(order(text('fluticasone HFA 110 mcg inhaler'), { value: 2, unit: 'puff' }, 2), 'ics'));
  t.notOk(orderInClass(order(text('atropine 1% ophthalmic solution'), undefined, 1, 'ophthalmic'), 'strong-anticholinergic'), 'ophthalmic atropine');
  t.notOk(orderInClass(order(text('doxepin 3 mg tablet'), { value: 3, unit: 'mg' }), 'strong-anticholinergic'), 'low-dose doxepin');
  t.ok(orderInClass(order(text('doxepin 25 mg capsule'), { value: 25, unit: 'mg' }, 2), 'strong-anticholinergic'));
  t.ok(orderInClass(order(text('amoxicillin-clavulanate 875 mg'), { value: 1, unit: 'tablet' }, 2), 'systemic-antibiotic'), 'a group id');
  t.notOk(orderInClass(order(text('mupirocin 2% ointment'), undefined, 3, 'topical'), 'systemic-antibiotic'));
  t.same(classesOfOrder(order(text('prednisone 10 mg tablet'), { value: 40, unit: 'mg' })), ['systemic-corticosteroid']);
  t.same(classesOfOrder(order(text('hydrocortisone 1% cream'), undefined, 2, 'topical')), [], 'topical steroid is not systemic');
});

t.test('routeKindOf and dailyMg', async (t) => {
  t.equal(routeKindOf({ ...order(text('x')), dosageInstruction: [{ route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006' }] } }] }), 'systemic');
  t.equal(routeKindOf(order(text('tiotropium 18 mcg inhalation capsule'))), 'inhaled', 'the words of the product');
  t.equal(routeKindOf(order(text('tiotropium'))), 'unknown');
  t.equal(dailyMg(order(text('metformin'), { value: 1, unit: 'g' }, 2)), 2000, 'unit conversion x frequency');
  t.equal(dailyMg(order(text('aspirin 81 MG Oral Tablet'), { value: 1, unit: 'tablet' })), 81, 'tablets x the strength in the name');
  t.equal(dailyMg(order(text('aspirin'))), undefined);
});

t.test('classesNamedIn: a class by its own name, in any spelling clinicians use', async (t) => {
  t.same(classesNamedIn('Allergies: NSAIDs (GI bleed), sulfa drugs, penicillins').sort(), ['nsaid', 'penicillin', 'sulfonamide-antibiotic']);
  t.same(classesNamedIn('start an SGLT2 inhibitor'), ['sglt2-inhibitor']);
  t.same(classesNamedIn('SGLT-2i'), ['sglt2-inhibitor']);
  t.same(classesNamedIn('beta-blocker, betablocker, beta blockers'), ['beta-blocker']);
  t.same(classesNamedIn('cephalosporins').sort(), expandClass('cephalosporin').sort(), 'a group named gives its classes');
  t.ok(classesNamedIn('beta-lactam allergy').includes('penicillin'), 'beta-lactams include the penicillins');
  t.same(classesNamedIn('carb counting, race in the park, drama'), [], 'ARB, ACE-I and MRA only as whole words');
  t.same(classesNamedIn('non-steroidal anti-inflammatory'), ['nsaid']);
  t.same(classesNamedIn('benzylpenicillinase'), [], 'inside another word is no mention');
});

t.test('mentionsDrug: an ingredient by any of its names, a class by a member or its own name', async (t) => {
  t.ok(mentionsDrug('Vibramycin 100 mg BID', 'doxycycline'), 'a brand');
  t.ok(mentionsDrug('switch to Jardiance', 'sglt2-inhibitor'), 'a brand of a member');
  t.ok(mentionsDrug('missing: MRA', 'mra'));
  t.ok(mentionsDrug('on Entresto', 'raas-blocker'), 'an ARNI product is a RAAS blocker');
  t.ok(mentionsDrug('RAAS blockade at maximum', 'raas-blocker'));
  t.ok(mentionsDrug('PCN allergy', 'penicillin'));
  t.ok(mentionsDrug('beta-lactam allergy evaluation', 'penicillin'), 'naming beta-lactams names the penicillins');
  t.notOk(mentionsDrug('cephalosporin allergy evaluation', 'penicillin'), 'a cephalosporin is not a penicillin');
  t.ok(mentionsDrug('Aricept 10 mg nightly', 'cholinesterase-inhibitor'));
  t.ok(mentionsDrug('works against the cholinesterase-inhibitor', 'cholinesterase-inhibitor'));
  t.notOk(mentionsDrug('Namenda 10 mg BID', 'cholinesterase-inhibitor'), 'memantine is no cholinesterase inhibitor');
  t.ok(mentionsDrug('cefalexin allergy (hives)', 'cephalexin'), 'a mention, whatever the context');
  t.notOk(mentionsDrug('cefuroxime 500 mg', 'cephalexin'));
  t.throws(() => mentionsDrug('x', 'not-a-drug'), /neither a drug class nor a drug/);
});

t.test('conceptIs: the drug of an order or an allergy', async (t) => {
  t.ok(conceptIs(text('penicillin VK 500 mg tablet'), 'penicillin'), 'the class named in the product');
  t.ok(conceptIs(text('Augmentin 875 mg'), 'penicillin'));
  t.ok(conceptIs(rx('723'), 'penicillin'), 'amoxicillin by code');
  t.notOk(conceptIs(text('cefuroxime 500 mg'), 'penicillin'));
  t.ok(conceptIs(text('Ceftin 500 mg'), 'cefuroxime'));
  t.ok(conceptIs(text('Sulfa drugs'), 'sulfonamide-antibiotic'), 'an allergy to a class');
  t.notOk(conceptIs(text('Keflex 500 mg'), 'cefuroxime'), 'another cephalosporin');
  t.ok(conceptIs(text('Keflex 500 mg'), 'cephalosporin'));
});

t.test('namesInTextFor: the names a writer used for a drug', async (t) => {
  t.same(namesInTextFor('Stop Norvasc; continue HCTZ.', ['amlodipine']), ['amlodipine', 'Norvasc']);
  t.same(namesInTextFor('Stop Norvasc; continue HCTZ.', ['hydrochlorothiazide']), ['hydrochlorothiazide', 'HCTZ']);
  t.same(namesInTextFor('Continue Anoro Ellipta daily', ['umeclidinium']), ['umeclidinium', 'Anoro'], 'one word suffices; no neighbour pairs');
  t.same(namesInTextFor('No oxybutynin.', ['oxybutynin']), ['oxybutynin'], 'the generic is not repeated');
  t.same(namesInTextFor('nothing relevant', ['oxybutynin']), ['oxybutynin']);
  t.same(namesInTextFor('Continue Pradaxa', ['dabigatran']), ['dabigatran', 'dabigatran etexilate', 'Pradaxa'], 'the vocabulary\'s name of the ingredient too');
});

t.test('namesInTextFor a class: its members and its own name as written', async (t) => {
  const names = namesInTextFor('Recommend an SGLT2 inhibitor (Farxiga 10 mg); SGLT-2i are renoprotective.', ['sglt2-inhibitor']);
  for (const n of ['empagliflozin', 'dapagliflozin', 'Farxiga', 'SGLT2 inhibitor', 'SGLT-2i']) t.ok(names.includes(n), n);
  t.notOk(names.includes('renoprotective'));
  t.same(classNamesIn('No NSAIDs; avoid non-steroidal anti-inflammatory drugs.', 'nsaid').sort(), ['NSAIDs', 'non-steroidal', 'non-steroidal anti-inflammatory'].sort());
  t.same(classNamesIn('beta-lactam allergy', 'penicillin'), ['beta-lactam'], 'a group that contains the class');
  t.same(classNamesIn('penicillin allergy', 'beta-lactam'), ['penicillin'], 'a class within the group');
  t.same(classNamesIn('cephalosporin allergy', 'penicillin'), [], 'another class of the group is not the class');
});
