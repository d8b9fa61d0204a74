// allergyConflicts: the allergy harm rule's judgement of one drug against the allergy list, for graders that judge a
// drug the patient keeps taking. The same 2022 practice-parameter cases as the rule: the culprit and its class, a
// low-risk penicillin reaction allowing cephalosporins, side chains after anaphylaxis, intolerances ignored.
import t from 'tap';
import type { AllergyIntolerance } from '@medplum/fhirtypes';
import { allergyConflicts } from '../../../graders/lib/harm/allergy.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const allergy = (id: string, code: string, text: string, reaction: string, criticality: 'low' | 'high', type: 'allergy' | 'intolerance' = 'allergy'): AllergyIntolerance => ({
  resourceType: 'AllergyIntolerance', id, patient: { reference: 'Patient/x' }, type, category: ['medication'], criticality,
  code: { coding: [{ system: RXNORM, code }], text }, reaction: [{ manifestation: [{ text: reaction }], description: reaction }],
});

t.test('sulfa allergy: TMP-SMX conflicts, nitrofurantoin does not', async (t) => {
  const sulfa = [allergy('s', '10180', 'Sulfamethoxazole (sulfa antibiotics)', 'Hives', 'low')];
  t.match(allergyConflicts(sulfa, ['sulfamethoxazole', 'trimethoprim'])[0], /sulfamethoxazole.*AllergyIntolerance\/s/);
  t.same(allergyConflicts(sulfa, ['nitrofurantoin']), []);
});

t.test('amoxicillin allergy: penicillins conflict; cephalexin only after a high-risk reaction', async (t) => {
  const hives = [allergy('a', '723', 'Amoxicillin', 'Hives (2004), resolved with an antihistamine', 'low')];
  t.equal(allergyConflicts(hives, ['amoxicillin', 'clavulanate']).length, 1);
  t.same(allergyConflicts(hives, ['cephalexin']), [], 'a remote low-risk reaction allows a cephalosporin');
  const anaphylaxis = [allergy('a', '723', 'Amoxicillin', 'Anaphylaxis', 'high')];
  t.match(allergyConflicts(anaphylaxis, ['cephalexin'])[0], /R1 side chain/);
  t.same(allergyConflicts(anaphylaxis, ['cefpodoxime']), [], 'a dissimilar side chain');
});

t.test('an intolerance is not an allergy', async (t) => {
  t.same(allergyConflicts([allergy('i', '723', 'Amoxicillin', 'Nausea', 'low', 'intolerance')], ['amoxicillin']), []);
});

t.test('a negated finding in the reaction history is no high-risk reaction', async (t) => {
  const hivesNoAirway = [allergy('a', '723', 'Amoxicillin', 'Hives, no airway involvement, no hypotension', 'low')];
  t.same(allergyConflicts(hivesNoAirway, ['cephalexin']), [], 'hives with airway and blood pressure spared allow cephalexin');
  const rashWithout = [allergy('a', '723', 'Amoxicillin', 'Maculopapular rash without mucosal involvement or hepatitis', 'low')];
  t.same(allergyConflicts(rashWithout, ['cephalexin']), [], 'a benign rash with severe features denied');
  const hivesThenAirway = [allergy('a', '723', 'Amoxicillin', 'No fever, but throat swelling and wheezing', 'low')];
  t.match(allergyConflicts(hivesThenAirway, ['cephalexin'])[0], /R1 side chain/, 'an affirmed airway finding after a negated one still counts');
});
