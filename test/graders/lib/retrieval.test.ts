import t from 'tap';
import type { AuditEntry } from '../../../contracts/gym-api.ts';
import { fetchedAll, fetchedAny, queriedByView, searchOf } from '../../../graders/lib/retrieval.ts';
import { anyOf } from '../../../graders/lib/match.ts';

const log: AuditEntry[] = [
  { seq: 1, time: '', method: 'GET', path: 'Observation', query: [['code', 'K']], status: 200, resourceIds: ['Observation/old'], latencyMs: 1, write: false },
  { seq: 2, time: '', method: 'POST', path: 'ServiceRequest', query: [], status: 201, resourceIds: ['ServiceRequest/new'], latencyMs: 1, write: true },
];

t.test('the latest result must itself be fetched; an older one does not count', async (t) => {
  t.ok(fetchedAll(log, ['Observation/old']).ok);
  const m = fetchedAll(log, ['Observation/latest', 'Observation/old'], 'potassium');
  t.notOk(m.ok);
  t.same(m.mismatches, ['potassium Observation/latest was never fetched']);
  t.notOk(fetchedAll(log, ['ServiceRequest/new']).ok, 'a write response is not a retrieval');
});

t.test('fetchedAny', async (t) => {
  t.ok(fetchedAny(log, ['Observation/x', 'Observation/old']).ok);
  t.notOk(fetchedAny(log, ['Observation/x']).ok);
  t.notOk(fetchedAny(log, []).ok, 'no evidence in the chart is a failure, not a pass');
});

t.test('queriedByView: a successful SQL on FHIR request with a view over the resource naming the terms', async (t) => {
  const view = (resource: string, code: string) => ({ resourceType: 'ViewDefinition', name: 'v', resource, select: [{ column: [{ name: 'c', path: `code.coding.where(code = '${code}').exists()` }] }] });
  const sql: AuditEntry = {
    seq: 3, time: '', method: 'POST', path: '$sqlquery-run', query: [], status: 200, resourceIds: [], latencyMs: 1, write: false,
    requestBody: { resourceType: 'Parameters', parameter: [{ name: 'query', valueString: 'SELECT 1' }, { name: 'view', resource: view('Observation', '4548-4') }] },
  };
  const run: AuditEntry = { ...sql, seq: 4, path: 'ViewDefinition/$run', requestBody: { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view('Condition', '44054006') }] } };
  t.ok(queriedByView([sql], 'Observation', ['4548-4']).ok);
  t.ok(queriedByView([run], 'Condition', ['44054006']).ok);
  t.notOk(queriedByView([sql], 'Observation', ['2823-3']).ok, 'a view on another code');
  t.notOk(queriedByView([sql], 'Condition').ok, 'a view on another resource type');
  t.notOk(queriedByView([{ ...sql, status: 400 }], 'Observation', ['4548-4']).ok, 'a failed query');
  t.notOk(queriedByView([{ ...sql, path: 'Observation' }], 'Observation', ['4548-4']).ok, 'not an SQL on FHIR operation');
  t.ok(anyOf(fetchedAll(log, ['Observation/none']), queriedByView([sql], 'Observation', ['4548-4'])).ok);
  const both = anyOf(fetchedAll(log, ['Observation/none']), queriedByView([], 'Observation'));
  t.notOk(both.ok);
  t.equal(both.mismatches.length, 2, 'both routes reported');
});

t.test('searchOf: a successful search of a type, about the patient when asked', async (t) => {
  const e = (seq: number, method: string, path: string, query: [string, string][] = [], status = 200, requestBody?: unknown): AuditEntry =>
    ({ seq, time: '', method, path, query, status, resourceIds: [], latencyMs: 1, write: false, ...(requestBody ? { requestBody } : {}) });
  t.equal(searchOf([e(1, 'GET', 'MedicationRequest', [['patient', 'p1']])], 'MedicationRequest', 'p1')?.seq, 1);
  t.equal(searchOf([e(1, 'GET', 'MedicationRequest', [['subject', 'Patient/p1']])], 'MedicationRequest', 'p1')?.seq, 1, 'subject with the type');
  t.equal(searchOf([e(1, 'GET', 'Patient/p1/MedicationRequest')], 'MedicationRequest', 'p1')?.seq, 1, 'the compartment');
  t.equal(searchOf([e(1, 'POST', 'MedicationRequest/_search', [], 200, { patient: 'p1' })], 'MedicationRequest', 'p1')?.seq, 1, 'POST _search');
  t.equal(searchOf([e(1, 'GET', 'MedicationRequest', [['patient', 'p2']])], 'MedicationRequest', 'p1'), undefined, 'another patient');
  t.equal(searchOf([e(1, 'GET', 'MedicationRequest', [['patient', 'p1']], 400)], 'MedicationRequest', 'p1'), undefined, 'a failed search');
  t.equal(searchOf([e(1, 'GET', 'MedicationRequest/m1')], 'MedicationRequest'), undefined, 'a read is not a search');
  t.equal(searchOf([e(1, 'POST', 'MedicationRequest', [], 201)], 'MedicationRequest'), undefined, 'a create is not a search');
  t.equal(searchOf([e(1, 'GET', 'MedicationStatement')], 'MedicationRequest'), undefined, 'another type');
  t.equal(searchOf([e(1, 'GET', 'Condition', [['code', 'x']])], 'Condition')?.seq, 1, 'no patient asked: any search of the type');
});
