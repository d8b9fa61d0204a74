// Operations whose answer is not a resource available now ($sqlquery-run answers from a child process, $run answers
// with rows) cannot be Bundle entries: each such entry fails with a 400 OperationOutcome, never a 500 or an empty 200.
import t from 'tap';
import type { Bundle, BundleEntry } from '@medplum/fhirtypes';
import { buildApp } from '../../../server/app.ts';

const { app } = buildApp();
t.teardown(() => app.close());
const FHIR = { 'content-type': 'application/fhir+json' };

const patients = { resourceType: 'ViewDefinition', name: 'patients', resource: 'Patient', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }] }] };
const sqlEntry = (query: string): BundleEntry => ({
  request: { method: 'POST', url: '$sqlquery-run' },
  resource: { resourceType: 'Parameters', parameter: [{ name: 'query', valueString: query }, { name: 'view', resource: patients as never }] },
});
const runEntry: BundleEntry = {
  request: { method: 'POST', url: 'ViewDefinition/$run' },
  resource: { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: patients as never }] },
};
const createEntry = (family: string): BundleEntry => ({ request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient', name: [{ family }] } });
const post = async (bundle: unknown) => {
  const res = await app.inject({ method: 'POST', url: '/fhir', headers: FHIR, payload: JSON.stringify(bundle) });
  return { status: res.statusCode, body: JSON.parse(res.body) };
};
const countPatients = async () => JSON.parse((await app.inject({ method: 'GET', url: '/fhir/Patient?_summary=count' })).body).total as number;

t.test('in a batch: the $sqlquery-run and $run entries fail with 400 not-supported; the others still run', async (t) => {
  const res = await post({
    resourceType: 'Bundle', type: 'batch',
    // Refused before any work: the query that would fail only at run time (malformed JSON) never starts either.
    entry: [sqlEntry('SELECT count(*) AS n FROM patients'), createEntry('Kept'), sqlEntry("SELECT json_extract('{bad', '$') AS x FROM patients"), runEntry],
  });
  t.equal(res.status, 200);
  const entries = (res.body as Bundle).entry!;
  for (const i of [0, 2, 3]) {
    t.equal(entries[i].response?.status, '400 Bad Request', `entry ${i} is a 400`);
    const issue = entries[i].response?.outcome?.issue?.[0];
    t.equal(issue?.code, 'not-supported', `entry ${i}: code not-supported`);
    t.match(issue?.diagnostics, /\$(sqlquery-run|run) is not supported in a batch/, `entry ${i}: says why`);
  }
  t.match(entries[1].response?.status, /^201/, 'the create in the same batch succeeded');
});

t.test('in a transaction: the whole transaction fails with 400 and nothing is written', async (t) => {
  const before = await countPatients();
  const res = await post({ resourceType: 'Bundle', type: 'transaction', entry: [createEntry('Rolled back'), sqlEntry('SELECT count(*) AS n FROM patients')] });
  t.equal(res.status, 400);
  t.equal(res.body.resourceType, 'OperationOutcome');
  t.match(res.body.issue[0].diagnostics, /^Bundle\.entry\[1\] .*\$sqlquery-run is not supported in a batch/);
  t.equal(await countPatients(), before, 'the create was rolled back');
});

t.test('the same query sent directly answers at once: the refused entries started no query process', async (t) => {
  // SQL_LIMITS.maxConcurrent is 2; three refused entries that had started children would make this a 429.
  const res = await app.inject({ method: 'POST', url: '/fhir/$sqlquery-run', headers: FHIR, payload: JSON.stringify(sqlEntry('SELECT count(*) AS n FROM patients').resource) });
  t.equal(res.statusCode, 200, res.body);
  t.same(JSON.parse(res.body), [{ n: await countPatients() }]);
});
