import t from 'tap';
import type { AuditEntry } from '../../../harness/types.ts';
import { fetchedAll, fetchedAny } from '../../../graders/lib/retrieval.ts';

const log: AuditEntry[] = [
  { seq: 1, time: '', method: 'GET', path: 'Observation', query: [['code', 'K']], status: 200, resourceIds: ['Observation/old'], latencyMs: 1 },
  { seq: 2, time: '', method: 'POST', path: 'ServiceRequest', query: [], status: 201, resourceIds: ['ServiceRequest/new'], latencyMs: 1 },
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
