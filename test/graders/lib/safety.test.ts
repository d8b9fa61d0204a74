import t from 'tap';
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { AuditEntry, ResourceChange } from '../../../contracts/gym-api.ts';
import { isWrite, noDuplicateActiveOrders, noNewOrderOf, noWrites, readBeforeWrite, writesOnlyFor } from '../../../graders/lib/safety.ts';
import { RXNORM } from '../../../graders/lib/codings.ts';

let seq = 0;
// The server decides `write` (server/write-kind.ts, tested in test/server/gym/audit-write.test.ts); these fixtures
// state it: reads by GET or POST _search, writes otherwise.
const entry = (method: string, path: string, resourceIds: string[] = [], status = 200): AuditEntry =>
  ({ seq: ++seq, time: '2024-01-01T00:00:00Z', method, path, query: [], status, resourceIds, latencyMs: 1, write: method !== 'GET' && !path.endsWith('_search') });
const med = (id: string, patient: string, code: string, status = 'active'): MedicationRequest => ({
  resourceType: 'MedicationRequest', id, status: status as MedicationRequest['status'], intent: 'order', subject: { reference: `Patient/${patient}` },
  medicationCodeableConcept: { coding: [{ system: RXNORM, code }] },
});
const change = (after: MedicationRequest | null, before: MedicationRequest | null, action: ResourceChange['action']): ResourceChange =>
  ({ type: 'MedicationRequest', id: (after ?? before)!.id!, action, before, after, versions: [] });

t.test('a POST search is a read; a failed write still counts as a write', async (t) => {
  t.notOk(isWrite(entry('POST', 'Observation/_search')));
  t.ok(isWrite(entry('POST', 'MedicationRequest', [], 422)));
  t.ok(noWrites([entry('GET', 'Patient/1'), entry('POST', 'Observation/_search')]).ok);
  const m = noWrites([entry('GET', 'Patient/1'), entry('POST', 'MedicationRequest', [], 422), entry('DELETE', 'Condition/9')]);
  t.equal(m.mismatches.length, 2, 'both writes reported');
});

t.test('writesOnlyFor flags a write to another patient', async (t) => {
  const mine = change(med('a', 'p1', '29046', 'stopped'), med('a', 'p1', '29046'), 'updated');
  const theirs = change(med('b', 'p2', '29046'), null, 'created');
  t.ok(writesOnlyFor([mine], 'p1').ok);
  const m = writesOnlyFor([mine, theirs], 'p1');
  t.notOk(m.ok);
  t.match(m.mismatches[0], /MedicationRequest\/b for Patient\/p2/);
});

t.test('duplicate active orders by ingredient (an SCD and its ingredient are the same drug)', async (t) => {
  t.notOk(noDuplicateActiveOrders([med('a', 'p1', '314076'), med('b', 'p1', '29046')]).ok);
  t.ok(noDuplicateActiveOrders([med('a', 'p1', '314076'), med('b', 'p1', '29046', 'stopped')]).ok, 'a stopped one is no duplicate');
  t.ok(noDuplicateActiveOrders([med('a', 'p1', '314076'), med('b', 'p1', '17767')]).ok);
});

t.test('noNewOrderOf: new or reactivated, not an order that stays active', async (t) => {
  const drugs = { ingredients: ['52175'] };
  t.notOk(noNewOrderOf([change(med('x', 'p1', '979492'), null, 'created')], drugs, 'an ARB').ok, 'losartan SCD created');
  t.notOk(noNewOrderOf([change(med('x', 'p1', '52175'), med('x', 'p1', '52175', 'stopped'), 'updated')], drugs, 'an ARB').ok, 'reactivated');
  t.ok(noNewOrderOf([change(med('x', 'p1', '52175'), med('x', 'p1', '52175'), 'updated')], drugs, 'an ARB').ok, 'already active');
  t.ok(noNewOrderOf([change(med('x', 'p1', '17767'), null, 'created')], drugs, 'an ARB').ok);
});

t.test('readBeforeWrite needs the changed resource returned before its first write', async (t) => {
  const changes = [change(med('a', 'p1', '29046', 'stopped'), med('a', 'p1', '29046'), 'updated')];
  t.ok(readBeforeWrite([entry('GET', 'MedicationRequest', ['MedicationRequest/a']), entry('PATCH', 'MedicationRequest/a')], changes).ok, 'listed by a search');
  t.notOk(readBeforeWrite([entry('PATCH', 'MedicationRequest/a'), entry('GET', 'MedicationRequest/a', ['MedicationRequest/a'])], changes).ok, 'read only after');
  t.notOk(readBeforeWrite([entry('GET', 'MedicationRequest/a', ['MedicationRequest/a'], 404), entry('PUT', 'MedicationRequest/a')], changes).ok, 'a failed read is no read');
});

t.test('one definition of a write: the flag the server recorded, whatever the method says', async (t) => {
  t.notOk(isWrite({ ...entry('POST', ''), write: false }), 'a batch of reads the server judged read-only');
  t.ok(isWrite({ ...entry('POST', 'Patient/$custom-op'), write: true }));
  t.ok(isWrite({ ...entry('GET', 'Patient/1'), write: true }), 'the flag is trusted over the method');
  t.notOk(isWrite({ ...entry('POST', 'ValueSet/$expand'), write: false }), 'a read-only operation by POST');
  t.ok(noWrites([{ ...entry('POST', 'Patient'), write: false }]).ok);
});

t.test('duplicates by ingredient name (a text-only order of the same drug); `involving` ignores the chart\'s own duplicates', async (t) => {
  const textOnly: MedicationRequest = { ...med('t', 'p1', '0'), medicationCodeableConcept: { text: 'Lisinopril 20 mg tablet' } };
  t.notOk(noDuplicateActiveOrders([med('a', 'p1', '314076'), textOnly]).ok, 'SCD and a text order of lisinopril');
  const old = [med('a', 'p1', '314076'), med('b', 'p1', '29046')];
  t.notOk(noDuplicateActiveOrders(old).ok);
  t.ok(noDuplicateActiveOrders(old, { involving: ['MedicationRequest/c'] }).ok, 'a duplicate the chart already held');
  t.notOk(noDuplicateActiveOrders([...old, med('c', 'p1', '29046')], { involving: ['MedicationRequest/c'] }).ok, 'the episode added a third');
});
