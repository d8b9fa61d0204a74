// GET /gym/sessions/{id}/changes: what the session created, updated and deleted, with before and after versions.
import t from 'tap';
import { basePatients, startGym } from './gym-harness.ts';

t.test('created, updated, deleted and created-then-deleted, with before and after versions', async (t) => {
  const gym = await startGym(t);
  const s = await gym.createSession({ now: '2023-11-13T10:15:00Z' });
  const b = await gym.createSession();
  const base = `/fhir/_session/${s.id}`;
  const created = (await gym.json('POST', `${base}/Patient`, { resourceType: 'Patient', name: [{ family: 'New' }] })).body;
  await gym.json('PUT', `${base}/Patient/p1`, { ...basePatients[0], gender: 'other' });
  await gym.json('PUT', `${base}/Patient/p1`, { ...basePatients[0], gender: 'unknown' });
  await gym.json('DELETE', `${base}/Observation/o1`);
  const temp = (await gym.json('POST', `${base}/Patient`, { resourceType: 'Patient', name: [{ family: 'Temp' }] })).body;
  await gym.json('DELETE', `${base}/Patient/${temp.id}`);
  await gym.json('GET', `${base}/Patient/p2`);
  await gym.json('PUT', `/fhir/_session/${b.id}/Patient/p2`, { ...basePatients[1], gender: 'other' });

  const res = await gym.json('GET', `/gym/sessions/${s.id}/changes`);
  t.equal(res.status, 200);
  const byKey = new Map(res.body.changes.map((c: any) => [`${c.type}/${c.id}`, c]));
  t.equal(byKey.size, 4, 'reads and other sessions are not changes');
  const newPatient: any = byKey.get(`Patient/${created.id}`);
  t.equal(newPatient.action, 'created');
  t.equal(newPatient.before, null);
  t.equal(newPatient.after.name[0].family, 'New');
  const p1: any = byKey.get('Patient/p1');
  t.equal(p1.action, 'updated');
  t.equal(p1.before.gender, 'female', 'before is the base version, not the first session version');
  t.equal(p1.before.meta.versionId, '1');
  t.equal(p1.after.gender, 'unknown');
  t.same(p1.versions.map((v: any) => v.version), [2, 3]);
  t.ok(p1.versions.every((v: any) => v.lastUpdated.startsWith('2023-11-13')));
  const o1: any = byKey.get('Observation/o1');
  t.equal(o1.action, 'deleted');
  t.equal(o1.before.status, 'final');
  t.equal(o1.after, null);
  t.same(o1.versions, [{ version: 2, lastUpdated: o1.versions[0].lastUpdated, deleted: true }]);
  const tmp: any = byKey.get(`Patient/${temp.id}`);
  t.equal(tmp.action, 'created-then-deleted');
  t.same([tmp.before, tmp.after], [null, null]);
});

t.test('fixture writes are the starting state, not changes: a changed fixture resource has the fixture version as before', async (t) => {
  const gym = await startGym(t);
  const fixture = {
    resourceType: 'Bundle', type: 'transaction',
    entry: [
      { resource: { resourceType: 'Patient', id: 'p1', name: [{ family: 'FixtureName' }] }, request: { method: 'PUT', url: 'Patient/p1' } },
      { resource: { resourceType: 'Patient', id: 'fx', name: [{ family: 'Fx' }] }, request: { method: 'PUT', url: 'Patient/fx' } },
    ],
  };
  const s = await gym.createSession({ fixture });
  t.same((await gym.json('GET', `/gym/sessions/${s.id}/changes`)).body.changes, []);
  await gym.json('PUT', `/fhir/_session/${s.id}/Patient/p1`, { resourceType: 'Patient', id: 'p1', name: [{ family: 'AgentName' }] });
  const [change] = (await gym.json('GET', `/gym/sessions/${s.id}/changes`)).body.changes;
  t.equal(change.action, 'updated');
  t.equal(change.before.name[0].family, 'FixtureName');
  t.equal(change.before.meta.versionId, '2');
  t.equal(change.after.meta.versionId, '3');
});
