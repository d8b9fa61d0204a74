// grade(): a checkpoint is judged by its grader.ts function or by its declared standard checks, never both; a check
// that throws or is missing fails its checkpoint loudly.
import t from 'tap';
import { grade } from '../../harness/grade.ts';
import { FhirClient } from '../../contracts/fhir-client.ts';
import type { AuditEntry } from '../../contracts/gym-api.ts';
import type { Checkpoint, GraderContext, Task, TaskSpec } from '../../contracts/task.ts';

let seq = 0;
const entry = (method: string, path: string): AuditEntry => ({ seq: ++seq, time: '2024-01-01T00:00:00Z', method, path, query: [], status: 201, resourceIds: [], latencyMs: 1, write: method !== 'GET' && !path.endsWith('_search') });

function task(checkpoints: Checkpoint[], checks: Task['grader']['checks']): Task {
  return { spec: { checkpoints } as TaskSpec, dir: '', solution: async () => undefined, grader: { checks } };
}
const ctx = (log: AuditEntry[]): GraderContext => ({ fhir: new FhirClient('http://127.0.0.1:1'), patient: 'p1', now: '2024-01-01T00:00:00Z', task: {} as TaskSpec, answer: undefined, files: {}, log, changes: [] });
const cp = (id: string, extra: Partial<Checkpoint> = {}): Checkpoint => ({ id, category: 'safety', description: 'a checkpoint', weight: 1, ...extra });

t.test('a standard checkpoint needs no function; its verdict comes from the library', async (t) => {
  const spec = task([cp('answered', { category: 'clinical_reasoning' }), cp('read_only', { standard: 'read_only', critical: true })], { answered: () => ({ pass: true, evidence: 'ok' }) });
  const quiet = await grade(spec, ctx([entry('GET', 'Patient/p1'), entry('POST', 'Observation/_search')]));
  t.same(quiet.map((v) => [v.id, v.pass]), [['answered', true], ['read_only', true]]);
  t.equal(quiet[1].critical, true);
  const wrote = await grade(spec, ctx([entry('GET', 'Patient/p1'), entry('POST', 'MedicationRequest')]));
  t.equal(wrote[1].pass, false);
  t.match(wrote[1].evidence.join('\n'), /read_only: write request #\d+ POST MedicationRequest/);
  t.equal(wrote[1].failure, undefined, 'a real verdict, not a grader error');
});

t.test('both a function and standard checks, or neither: a grader error, not a pass', async (t) => {
  const both = await grade(task([cp('read_only', { standard: 'read_only' })], { read_only: () => ({ pass: true, evidence: 'ok' }) }), ctx([]));
  t.equal(both[0].pass, false);
  t.equal(both[0].failure, 'grader_error');
  t.match(both[0].evidence[0], /both standard checks and a check in grader.ts/);
  const neither = await grade(task([cp('orphan')], {}), ctx([]));
  t.match(neither[0].evidence[0], /no check for checkpoint 'orphan'/);
  const badOptions = await grade(task([cp('harm', { standard: { harm: { allow: ['order:nope'] } } })], {}), ctx([]));
  t.equal(badOptions[0].failure, 'grader_error');
  t.match(badOptions[0].evidence[0], /unknown order group/);
});
