// The gym API's request shapes are Fastify route schemas: query numbers are read from text, JSON bodies are taken as
// sent (no coercion, nothing dropped), and every refusal is a 400 OperationOutcome naming the field.
import t from 'tap';
import { startGym } from './gym-harness.ts';

t.test('route schemas of the gym API', async (t) => {
  const gym = await startGym(t);
  const json = { 'content-type': 'application/json' };
  const created = await gym.json('POST', '/gym/sessions', {}, json);
  t.equal(created.status, 201);
  const id = created.body.id as string;

  const log = await gym.json('GET', `/gym/sessions/${id}/log?after=0&limit=5`);
  t.equal(log.status, 200, 'numbers in the query string are read as numbers');
  for (const query of ['after=abc', 'limit=-1', 'after=1.5']) {
    const bad = await gym.json('GET', `/gym/sessions/${id}/log?${query}`);
    t.equal(bad.status, 400, query);
    t.equal(bad.body.resourceType, 'OperationOutcome');
    t.same(bad.body.issue[0].expression, [query.split('=')[0]]);
  }
  const strings = await gym.json('POST', '/gym/sessions', { toolOptions: { decodeAttachments: 'true' } }, json);
  t.equal(strings.status, 400, 'a body is not coerced: "true" is not a boolean');
  t.same(strings.body.issue[0].expression, ['toolOptions.decodeAttachments']);
  const unknown = await gym.json('POST', '/gym/sessions', { toolOptions: { colour: 'red' } }, json);
  t.equal(unknown.status, 400, 'an unknown tool option is refused, not dropped');
  const noAnswer = await gym.json('POST', `/gym/sessions/${id}/submit`, { files: {} }, json);
  t.equal(noAnswer.status, 400);
  t.same(noAnswer.body.issue[0].expression, ['answer']);
  const badFiles = await gym.json('POST', `/gym/sessions/${id}/submit`, { answer: 'x', files: { 'a.txt': 1 } }, json);
  t.equal(badFiles.status, 400);
  t.same(badFiles.body.issue[0].expression, ['files.a.txt']);
  const format = await gym.json('GET', '/gym/tools?format=yaml');
  t.equal(format.status, 400);
  t.same(format.body.issue[0].expression, ['format']);
});
