// The clinical coherence suite (issue 16, item 9): every rule over the whole default population (250 patients,
// seed 1, generated in memory) and seeds 2 and 3, and each rule on small hand-made charts so a rule the population
// does not exercise yet (PHQ-9 items, dispenses, allergy orders) is still shown to catch what it should.
import t from 'tap';
import type { Resource } from '@medplum/fhirtypes';
import { COHERENCE_RULES, CoherenceCollector, PLANTED_ERROR_SYSTEM, checkPatient, plantedErrorTag } from '../../seed/coherence.ts';
import { generatePopulation } from '../../seed/generate.ts';
import { DEFAULT_REFERENCE_DATE } from '../../seed/time.ts';

const reference = Date.parse(DEFAULT_REFERENCE_DATE);

/**
 * Unlabelled violations each population still has, by rule, with why (0 for every rule not listed).
 * art-regimen: HIV is treated with dolutegravir alone; the drug vocabulary (seed/codes/rxnorm) holds no second
 * antiretroviral yet, so a 2-drug regimen cannot be written (one violation per HIV patient).
 */
const KNOWN_UNLABELLED: Record<number, Record<string, number>> = { 1: { 'art-regimen': 2 }, 2: { 'art-regimen': 3 }, 3: { 'art-regimen': 3 } };

/** Rules the default population gives something to judge (the others have no such resources yet). */
const EXERCISED = ['same-day-labs', 'duplicate-therapy', 'stent-antiplatelet', 'art-regimen', 'lithium-levels', 'vaccine-authorised'];

// The default population (seed 1), and seeds 2 and 3 (issue 16: the suite passes on those too).
for (const seed of [1, 2, 3]) {
  t.test(`the population of 250 patients, seed ${seed}, has no unlabelled violation of the rules that hold`, async (t) => {
    const collector = new CoherenceCollector({ reference });
    for (const batch of generatePopulation({ patients: 250, seed })) collector.add(batch.resources);
    for (const rule of COHERENCE_RULES) {
      const counts = collector.counts[rule.key];
      const unlabelled = collector.unlabelled.filter((v) => v.rule === rule.key);
      t.equal(unlabelled.length, KNOWN_UNLABELLED[seed][rule.key] ?? 0, `${rule.key}: ${JSON.stringify(counts)} ${JSON.stringify(unlabelled.slice(0, 3))}`);
      if (EXERCISED.includes(rule.key)) t.ok(counts.checked > 0, `${rule.key} judged something`);
    }
    // Planted duplicates, where a population has them, are labelled on both orders.
    if (seed === 1) t.ok(collector.counts['duplicate-therapy'].labelled > 0, 'some duplicate orders are planted (and labelled)');
  });
}

// ---- each rule on hand-made charts -------------------------------------------------------------------------------

const patient: Resource = { resourceType: 'Patient', id: 'p' };
const lab = (id: string, loinc: string, value: number, unit: string, at: string): Resource => ({
  resourceType: 'Observation', id, status: 'final', code: { coding: [{ system: 'http://loinc.org', code: loinc }] },
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
  effectiveDateTime: at, valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});
const order = (id: string, rxcui: string, authoredOn: string, extra: Record<string, unknown> = {}): Resource => ({
  resourceType: 'MedicationRequest', id, status: 'active', intent: 'order', subject: { reference: 'Patient/p' }, authoredOn,
  medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: rxcui }] }, ...extra,
} as Resource);
const violations = (resources: Resource[], rule: string) => checkPatient([patient, ...resources], { reference })[rule].violations;

t.test('same-day labs: creatinine 1.35 and 2.91 the same day contradict; 1.35 and 1.38 (assay noise) do not; a value in umol/L is converted', async (t) => {
  t.equal(violations([lab('a', '2160-0', 1.35, 'mg/dL', '2025-01-13T15:00:00Z'), lab('b', '2160-0', 2.91, 'mg/dL', '2025-01-13T18:00:00Z')], 'same-day-labs').length, 1);
  t.equal(violations([lab('a', '2160-0', 1.35, 'mg/dL', '2025-01-13T15:00:00Z'), lab('b', '2160-0', 1.38, 'mg/dL', '2025-01-13T18:00:00Z')], 'same-day-labs').length, 0);
  t.equal(violations([lab('a', '2160-0', 1.35, 'mg/dL', '2025-01-13T15:00:00Z'), lab('b', '2160-0', 121, 'umol/L', '2025-01-13T18:00:00Z')], 'same-day-labs').length, 0);
  t.equal(violations([lab('a', '2160-0', 1.35, 'mg/dL', '2025-01-13T15:00:00Z'), lab('b', '2160-0', 2.91, 'mg/dL', '2025-03-13T18:00:00Z')], 'same-day-labs').length, 0, 'months apart: a trend, not a contradiction');
});

t.test('duplicate therapy: the same ingredient twice, ACE inhibitor with ARB, two beta blockers; a planted pair is labelled; a dose change is not a duplicate', async (t) => {
  t.equal(violations([order('a', '314076', '2024-01-01'), order('b', '314077', '2024-06-01')], 'duplicate-therapy')[0].detail, 'the same ingredient ordered twice');
  t.equal(violations([order('a', '314076', '2024-01-01'), order('b', '979492', '2024-06-01')], 'duplicate-therapy')[0].detail, 'ACE inhibitor with ARB');
  t.equal(violations([order('a', '866427', '2024-01-01'), order('b', '200031', '2024-06-01')], 'duplicate-therapy')[0].detail, 'two beta blockers');
  const planted = violations([order('a', '83367', '2024-01-01', { meta: { tag: [plantedErrorTag('duplicate-order')] } }), order('b', '83367', '2024-06-01', { meta: { tag: [plantedErrorTag('duplicate-order')] } })], 'duplicate-therapy');
  t.equal(planted.length, 1);
  t.equal(planted[0].labelled, true);
  t.equal(plantedErrorTag('duplicate-order').system, PLANTED_ERROR_SYSTEM);
  const changed = [
    order('a', '314076', '2024-01-01', { status: 'stopped', dosageInstruction: [{ timing: { repeat: { boundsPeriod: { start: '2024-01-01', end: '2024-06-01' } } } }] }),
    order('b', '314077', '2024-06-01', { priorPrescription: { reference: 'MedicationRequest/a' } }),
  ];
  t.equal(violations(changed, 'duplicate-therapy').length, 0);
});

t.test('a stent needs a P2Y12 inhibitor within 30 days, unless one is recorded as not to be given with a reason', async (t) => {
  const stent: Resource = { resourceType: 'Procedure', id: 's', status: 'completed', subject: { reference: 'Patient/p' }, code: { coding: [{ system: 'http://snomed.info/sct', code: '415070008' }] }, performedDateTime: '2024-03-01T10:00:00Z' };
  t.equal(violations([stent, order('asa', '1191', '2024-03-01')], 'stent-antiplatelet').length, 1, 'aspirin alone is not DAPT');
  t.equal(violations([stent, order('c', '32968', '2024-03-01')], 'stent-antiplatelet').length, 0);
  t.equal(violations([stent, order('c', '32968', '2024-03-01', { status: 'draft', doNotPerform: true, reasonCode: [{ text: 'active GI bleeding' }] })], 'stent-antiplatelet').length, 0);
});

t.test('ART: one drug is not a regimen; a year on ART without a viral load is a gap', async (t) => {
  const hiv: Resource = { resourceType: 'Condition', id: 'h', subject: { reference: 'Patient/p' }, code: { coding: [{ system: 'http://snomed.info/sct', code: '86406008' }] } };
  const vls = ['2023-09-01', '2024-03-01', '2024-09-01', '2025-03-01'].map((d, i) => lab(`vl${i}`, '20447-9', 0, '{copies}/mL', `${d}T10:00:00Z`));
  t.same(violations([hiv, order('d', '1433868', '2023-06-01'), ...vls], 'art-regimen').map((v) => v.detail), ['antiretroviral regimen of 1 drug']);
  t.same(violations([hiv, order('d', '1433868', '2023-06-01'), ...vls.slice(0, 2)], 'art-regimen').map((v) => v.detail),
    ['antiretroviral regimen of 1 drug', 'antiretroviral therapy without a viral load for over a year']);
});

t.test('lithium without a level for over a year is flagged; a local-code-only level counts', async (t) => {
  const li = order('li', '42351', '2023-01-01');
  t.equal(violations([li], 'lithium-levels').length, 1);
  const levels = ['2023-06-01', '2024-01-01', '2024-08-01', '2025-03-01'].map((d, i) => lab(`l${i}`, '14334-7', 0.8, 'mmol/L', `${d}T10:00:00Z`));
  const local = { ...levels[1], code: { coding: [{ system: 'http://ehr-gym.example/fhir/CodeSystem/flowsheet', code: 'LITH' }] } } as Resource;
  t.equal(violations([li, levels[0], local, levels[2], levels[3]], 'lithium-levels').length, 0);
});

t.test('vaccines only after authorisation: a COVID-19 mRNA dose in November 2020 is flagged, January 2021 is not', async (t) => {
  const imm = (id: string, at: string): Resource => ({ resourceType: 'Immunization', id, status: 'completed', patient: { reference: 'Patient/p' }, occurrenceDateTime: at, vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '208' }] } });
  t.equal(violations([imm('a', '2020-11-20T10:00:00Z'), imm('b', '2021-01-20T10:00:00Z')], 'vaccine-authorised').length, 1);
});

t.test('a PHQ-9 total must equal the sum of its item answers', async (t) => {
  const item = (id: string, v: number): Resource => ({ resourceType: 'Observation', id, status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '44250-9' }] }, valueInteger: v });
  const total = (value: number): Resource => ({ resourceType: 'Observation', id: 'tot', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '44261-6' }] }, valueQuantity: { value }, hasMember: [{ reference: 'Observation/i1' }, { reference: 'Observation/i2' }] });
  t.equal(violations([item('i1', 2), item('i2', 3), total(5)], 'phq9-items').length, 0);
  t.equal(violations([item('i1', 2), item('i2', 3), total(9)], 'phq9-items').length, 1);
});

t.test('a dispense before its order, or without one, is flagged', async (t) => {
  const dispense = (when: string, prescription = 'MedicationRequest/o'): Resource => ({ resourceType: 'MedicationDispense', id: 'd', status: 'completed', authorizingPrescription: [{ reference: prescription }], whenHandedOver: when });
  const o = order('o', '314076', '2024-05-01T10:00:00Z');
  t.equal(violations([o, dispense('2024-05-02T10:00:00Z')], 'dispense-after-order').length, 0);
  t.equal(violations([o, dispense('2024-04-02T10:00:00Z')], 'dispense-after-order').length, 1);
  t.equal(violations([o, dispense('2024-05-02T10:00:00Z', 'MedicationRequest/missing')], 'dispense-after-order').length, 1);
});

t.test('an order for a drug the patient is allergic to is flagged unless the order documents why', async (t) => {
  const allergy: Resource = { resourceType: 'AllergyIntolerance', id: 'al', patient: { reference: 'Patient/p' }, clinicalStatus: { coding: [{ code: 'active' }] }, code: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '29046' }] }, onsetDateTime: '2020-01-01' };
  t.equal(violations([allergy, order('o', '314076', '2024-05-01')], 'allergy-orders').length, 1);
  t.equal(violations([allergy, order('o', '314076', '2024-05-01', { note: [{ text: 'Allergy reviewed: remote cough only, not angioedema; rechallenge agreed.' }] })], 'allergy-orders').length, 0);
});
