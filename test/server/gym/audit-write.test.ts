// One definition of "a write" (server/write-kind.ts), recorded per audit entry: POST searches and read-only
// operations ($run, $sqlquery-run, $validate, $expand) are not writes though they are POSTs; a failed create is
// still a write; a batch of reads is a read. The session's write count and graders' isWrite follow the flag.
import t from 'tap';
import { startGym } from './gym-harness.ts';
import { isWriteRequest } from '../../../server/write-kind.ts';
import { isWrite } from '../../../graders/lib/safety.ts';
import type { AuditEntry } from '../../../contracts/gym-api.ts';

const view = { resourceType: 'ViewDefinition', name: 'pts', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'id' }] }] };

t.test('the audit log records whether each request wrote', async (t) => {
  const gym = await startGym(t);
  const s = await gym.createSession();
  const base = `/fhir/_session/${s.id}`;
  const requests: [string, string, unknown, boolean][] = [
    ['GET', 'Patient/p1', undefined, false],
    ['POST', 'Patient/_search', undefined, false],
    ['POST', 'ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }] }, false],
    ['POST', 'Patient/$validate', { resourceType: 'Patient', gender: 'female' }, false],
    ['POST', 'ValueSet/$expand', { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: 'http://hl7.org/fhir/ValueSet/administrative-gender' }] }, false],
    ['POST', 'Patient', { resourceType: 'Patient', gender: 'female' }, true],
    ['POST', 'Patient', { resourceType: 'Patient', gender: 42 }, true],
    ['PUT', 'Patient/p2', { resourceType: 'Patient', id: 'p2', gender: 'male' }, true],
    ['POST', '', { resourceType: 'Bundle', type: 'batch', entry: [{ request: { method: 'GET', url: 'Patient/p1' } }] }, false],
    ['POST', '', { resourceType: 'Bundle', type: 'transaction', entry: [{ request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient' } }] }, true],
    ['DELETE', 'Observation/o1', undefined, true],
  ];
  for (const [method, path, body] of requests) await gym.json(method, `${base}/${path}`, body);
  const entries = (await gym.json('GET', `/gym/sessions/${s.id}/log`)).body.entries as AuditEntry[];
  t.same(entries.map((e) => [e.method, e.path, e.write]), requests.map(([method, path, , write]) => [method, path, write]));
  t.same(entries.map((e) => isWrite(e)), requests.map(([, , , write]) => write), 'graders read the same flag');
  t.equal(entries[6]!.status, 400, 'the failed create is still recorded as a write');
  const session = await gym.json('GET', `/gym/sessions/${s.id}`);
  t.equal(session.body.counts.writeRequests, requests.filter(([, , , w]) => w).length, 'the session counts writes by the flag');
});

t.test('isWriteRequest: route shapes and the operation registry decide', async (t) => {
  const gym = await startGym(t);
  const ops = gym.context.operations;
  t.equal(isWriteRequest('POST', 'Patient/p1/$everything', undefined, ops), false, '$everything is read-only');
  t.equal(isWriteRequest('POST', '$sqlquery-run', undefined, ops), false);
  t.equal(isWriteRequest('POST', 'Patient/$frobnicate', undefined, ops), false, 'an unknown operation changes nothing');
  t.equal(isWriteRequest('PATCH', 'Patient/p1', undefined, ops), true);
  t.equal(isWriteRequest('POST', '', { resourceType: 'Bundle', entry: [null] }, ops), true, 'an unreadable entry counts as a write');
  t.equal(isWriteRequest('POST', '', { resourceType: 'Bundle', entry: [{ request: { method: 'POST', url: 'Patient/_search' } }] }, ops), false);
});
