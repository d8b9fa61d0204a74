// The one "no longer active" policy: stopped/cancelled/revoked/completed count; on-hold only when the task allows
// holding; entered-in-error only for the agent's own new order; deletion never.
import t from 'tap';
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import { isNoLongerActive, matchDiscontinuation, noLongerActiveStatuses } from '../../../graders/lib/discontinuations.ts';

const subject = { reference: 'Patient/p1' };
const med = (status: MedicationRequest['status'], extra: Partial<MedicationRequest> = {}): MedicationRequest =>
  ({ resourceType: 'MedicationRequest', id: 'm1', intent: 'order', subject, status, ...extra } as MedicationRequest);
const updated = (after: MedicationRequest): ResourceChange => ({ type: 'MedicationRequest', id: 'm1', action: 'updated', before: med('active'), after, versions: [] });
const createdThen = (after: MedicationRequest): ResourceChange => ({ type: 'MedicationRequest', id: 'm1', action: 'created', before: null, after, versions: [] });
const reason = { statusReason: { text: 'Hyperkalemia, K 5.9' } };

t.test('isNoLongerActive: the policy table', async (t) => {
  const cases: [string | undefined, Parameters<typeof isNoLongerActive>[1], boolean][] = [
    ['stopped', {}, true],
    ['cancelled', {}, true],
    ['revoked', {}, true], // ServiceRequest's cancelled
    ['completed', {}, true],
    ['on-hold', {}, false],
    ['on-hold', { allowHold: true }, true],
    ['entered-in-error', {}, false],
    ['entered-in-error', { createdInEpisode: true }, true],
    ['active', { allowHold: true, createdInEpisode: true }, false],
    ['draft', {}, false],
    ['unknown', {}, false],
    [undefined, {}, false],
  ];
  for (const [status, options, expected] of cases) t.equal(isNoLongerActive(status === undefined ? {} : { status }, options), expected, `${status} ${JSON.stringify(options)}`);
  t.notOk(isNoLongerActive(null), 'a deleted order (no current version) is not "no longer active": it is gone');
  t.same(noLongerActiveStatuses({ allowHold: true }), ['stopped', 'cancelled', 'revoked', 'completed', 'on-hold']);
});

t.test('matchDiscontinuation: on-hold passes only when the task allows holding', async (t) => {
  const hold = updated(med('on-hold', reason));
  const refused = matchDiscontinuation(hold, 'MedicationRequest/m1', { reasonRequired: true });
  t.notOk(refused.ok);
  t.match(refused.mismatches.join('\n'), /does not accept holding/);
  t.ok(matchDiscontinuation(hold, 'MedicationRequest/m1', { reasonRequired: true, allowHold: true }).ok);
});

t.test('matchDiscontinuation: completed counts by default (one policy for every task)', async (t) => {
  t.ok(matchDiscontinuation(updated(med('completed', reason)), 'MedicationRequest/m1', { reasonRequired: true }).ok);
  const sr: ServiceRequest = { resourceType: 'ServiceRequest', id: 's1', status: 'revoked', intent: 'order', subject, note: [{ text: 'not needed' }] };
  const change: ResourceChange = { type: 'ServiceRequest', id: 's1', action: 'updated', before: { ...sr, status: 'active', note: [] }, after: sr, versions: [] };
  t.ok(matchDiscontinuation(change, 'ServiceRequest/s1', { reasonRequired: true }).ok, 'a revoked ServiceRequest is cancelled');
});

t.test('matchDiscontinuation: entered-in-error only on the agent\'s own new order', async (t) => {
  const preExisting = matchDiscontinuation(updated(med('entered-in-error', reason)), 'MedicationRequest/m1', { reasonRequired: true });
  t.notOk(preExisting.ok, 'rewriting an existing order as an error is not stopping it');
  t.match(preExisting.mismatches.join('\n'), /only for an order created in error/);
  t.ok(matchDiscontinuation(createdThen(med('entered-in-error', reason)), 'MedicationRequest/m1', { reasonRequired: true }).ok, 'voiding its own duplicate');
});

t.test('matchDiscontinuation: deletion never counts, even with allowHold', async (t) => {
  const deleted: ResourceChange = { type: 'MedicationRequest', id: 'm1', action: 'deleted', before: med('active'), after: null, versions: [] };
  t.notOk(matchDiscontinuation(deleted, 'MedicationRequest/m1', { allowHold: true }).ok);
  t.notOk(matchDiscontinuation(updated(med('active')), 'MedicationRequest/m1', { allowHold: true }).ok, 'still active');
});

t.test('matchDiscontinuation: explicit statuses (deprecated) are still honoured as before', async (t) => {
  t.notOk(matchDiscontinuation(updated(med('completed', reason)), 'MedicationRequest/m1', { statuses: ['stopped'] }).ok);
  t.ok(matchDiscontinuation(updated(med('stopped', reason)), 'MedicationRequest/m1', { statuses: ['stopped'] }).ok);
});
