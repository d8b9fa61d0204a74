// Population-task helpers: age on a date, the active-problem rule, the problem-list cohort read over HTTP from a real
// server, per-episode memoising and the patient lists an answer gives. Fixtures hold the tempting wrong answer: a
// refuted or resolved problem, a problem that is only an encounter diagnosis, an ICD-10 child code, a birthday one
// day after the date.
import t from 'tap';
import type { Bundle, Condition, Patient, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  ageOn, agedBetween, isActiveProblem, isType2Diabetes, listedPatients, patientListMismatches, percentOf, perEpisode, problemListCohort,
} from '../../../graders/lib/cohort.ts';
import { ICD10CM, SNOMED } from '../../../graders/lib/codings.ts';
import { startServer } from '../../server/test-server.ts';

const CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';

function problem(id: string, patient: string, code: { system: string; code: string }, options: { clinical?: string; verification?: string; category?: string } = {}): Condition {
  return {
    resourceType: 'Condition', id, subject: { reference: `Patient/${patient}` }, code: { coding: [code] },
    category: [{ coding: [{ system: CATEGORY, code: options.category ?? 'problem-list-item' }] }],
    clinicalStatus: { coding: [{ system: CLINICAL, code: options.clinical ?? 'active' }] },
    ...(options.verification ? { verificationStatus: { coding: [{ system: VERIFICATION, code: options.verification }] } } : {}),
  };
}
const T2DM = { system: SNOMED, code: '44054006' };

t.test('ageOn: whole years on the calendar date; the birthday itself counts, the day before does not', async (t) => {
  t.equal(ageOn('1960-07-02', '2025-07-01T23:59:00Z'), 64, 'one day before the 65th birthday');
  t.equal(ageOn('1960-07-02', '2025-07-02T00:00:00Z'), 65, 'on the birthday');
  t.equal(ageOn('1960-12-31', '2025-01-01'), 64);
  t.equal(ageOn('1960-07', '2025-07-01'), 65, 'a birthDate without a day counts as the 1st of the month');
  t.equal(ageOn('2000-02-29', '2025-02-28'), 24, 'leap-day birthday not reached on 28 February');
});

t.test('agedBetween: inclusive bounds; no birthDate is never eligible', async (t) => {
  const p = (birthDate?: string): Patient => ({ resourceType: 'Patient', ...(birthDate ? { birthDate } : {}) });
  t.ok(agedBetween(p('1950-07-01'), '2025-07-01', 18, 75), 'exactly 75');
  t.ok(agedBetween(p('1949-07-02'), '2025-07-01', 18, 75), 'still 75 the day before turning 76');
  t.notOk(agedBetween(p('1949-07-01'), '2025-07-01', 18, 75), '76 on the day');
  t.notOk(agedBetween(p('2007-07-02'), '2025-07-01', 18, 75), '17, the day before turning 18');
  t.notOk(agedBetween(p(), '2025-07-01', 0, 200));
});

t.test('isActiveProblem: problem-list, active, neither entered-in-error nor refuted', async (t) => {
  t.ok(isActiveProblem(problem('a', 'p', T2DM)));
  t.ok(isActiveProblem(problem('a', 'p', T2DM, { verification: 'confirmed' })));
  t.notOk(isActiveProblem(problem('a', 'p', T2DM, { clinical: 'resolved' })));
  t.notOk(isActiveProblem(problem('a', 'p', T2DM, { verification: 'refuted' })));
  t.notOk(isActiveProblem(problem('a', 'p', T2DM, { verification: 'entered-in-error' })));
  t.notOk(isActiveProblem(problem('a', 'p', T2DM, { category: 'encounter-diagnosis' })), 'an encounter diagnosis is not on the problem list');
});

t.test('isType2Diabetes: SNOMED, ICD-10-CM E11 and its children, not E10 or E110-like codes', async (t) => {
  const with_ = (system: string, code: string) => problem('x', 'p', { system, code });
  t.ok(isType2Diabetes(with_(SNOMED, '44054006')));
  t.ok(isType2Diabetes(with_(ICD10CM, 'E11')));
  t.ok(isType2Diabetes(with_(ICD10CM, 'E11.65')));
  t.notOk(isType2Diabetes(with_(ICD10CM, 'E10.9')), 'type 1');
  t.notOk(isType2Diabetes(with_(ICD10CM, 'E110')), 'not a child of E11');
  t.notOk(isType2Diabetes(with_(SNOMED, 'E11.9')), 'right code, wrong system');
});

t.test('problemListCohort over HTTP: every page read, patients sorted, only active matching problems', async (t) => {
  const h = await startServer(t);
  const resources: Resource[] = [
    ...['p1', 'p2', 'p3', 'p4', 'p10'].map((id): Patient => ({ resourceType: 'Patient', id })),
    problem('c1', 'p2', T2DM),
    problem('c2', 'p2', { system: ICD10CM, code: 'E11.9' }),
    problem('c3', 'p10', { system: ICD10CM, code: 'E11.65' }), // ICD-10 only: a SNOMED code search would miss it
    problem('c4', 'p3', T2DM, { verification: 'refuted' }),
    problem('c5', 'p4', T2DM, { clinical: 'resolved' }),
    problem('c6', 'p1', { system: SNOMED, code: '59621000' }), // hypertension, not diabetes
    problem('c7', 'p4', T2DM, { category: 'encounter-diagnosis' }),
  ];
  const tx: Bundle = { resourceType: 'Bundle', type: 'transaction', entry: resources.map((r) => ({ resource: r, request: { method: 'PUT', url: `${r.resourceType}/${r.id}` } })) };
  const res = await h.app.inject({ method: 'POST', url: '/fhir', headers: { 'content-type': 'application/fhir+json' }, payload: tx });
  t.equal(res.statusCode, 200);
  const cohort = await problemListCohort(new FhirClient(h.baseUrl), isType2Diabetes);
  t.same(cohort, [
    { patient: 'p10', conditions: ['Condition/c3'] },
    { patient: 'p2', conditions: ['Condition/c1', 'Condition/c2'] },
  ], 'sorted as strings (p10 before p2), both of p2\'s entries kept, refuted/resolved/encounter entries left out');
});

t.test('perEpisode: one computation per FHIR client', async (t) => {
  let calls = 0;
  const cohort = perEpisode(async ({ fhir }: { fhir: object; n: number }) => { calls++; return fhir; });
  const a = {};
  const b = {};
  t.equal(await cohort({ fhir: a, n: 1 }), a);
  t.equal(await cohort({ fhir: a, n: 2 }), a, 'the second check of the episode reuses the first result');
  t.equal(calls, 1);
  t.equal(await cohort({ fhir: b, n: 1 }), b, 'another episode gets its own');
  t.equal(calls, 2);
});

t.test('listedPatients: references, bare ids and objects; undefined when the list is missing', async (t) => {
  t.same(listedPatients({ uncontrolled: ['Patient/a', 'b', { reference: 'Patient/c' }, { id: 'd' }] }, 'uncontrolled'), ['a', 'b', 'c', 'd']);
  t.same(listedPatients(JSON.stringify({ patients: ['Patient/x'] }), 'a1c8OrAbove', 'patients'), ['x'], 'a JSON string answer and a fallback field');
  t.same(listedPatients({ uncontrolled: [] }, 'uncontrolled'), [], 'an empty list is a list');
  t.equal(listedPatients({ uncontrolled: 'Patient/a' }, 'uncontrolled'), undefined, 'a string is not a list');
  t.equal(listedPatients({ other: ['Patient/a'] }, 'uncontrolled'), undefined);
});

t.test('patientListMismatches and percentOf', async (t) => {
  t.same(patientListMismatches(['a', 'b'], ['b', 'c']), ['missing Patient/a', 'Patient/c should not be listed']);
  t.same(patientListMismatches(['a'], ['a']), []);
  t.equal(percentOf(44, 79), 55.7);
  t.equal(percentOf(1, 3), 33.3);
  t.equal(percentOf(2, 3), 66.7, 'rounded, not truncated');
});
