// "Existing orders untouched": adding an appropriate order (mirabegron's urinalysis) is fine; changing or deleting
// what the chart already held is not, except the targets the task asks to change.
import t from 'tap';
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import { untouchedExcept } from '../../../graders/lib/untouched.ts';

const subject = { reference: 'Patient/p1' };
const med = (id: string, status: MedicationRequest['status'], versionId = '1'): MedicationRequest =>
  ({ resourceType: 'MedicationRequest', id, intent: 'order', subject, status, meta: { versionId }, medicationCodeableConcept: { text: 'donepezil 10 mg' } } as MedicationRequest);
const urinalysis: ServiceRequest = { resourceType: 'ServiceRequest', id: 'ua', status: 'active', intent: 'order', subject, code: { text: 'Urinalysis' } };

const created = (r: MedicationRequest | ServiceRequest): ResourceChange => ({ type: r.resourceType, id: r.id!, action: 'created', before: null, after: r, versions: [] });
const updated = (before: MedicationRequest, after: MedicationRequest): ResourceChange => ({ type: 'MedicationRequest', id: before.id!, action: 'updated', before, after, versions: [] });

t.test('new orders are not touching: mirabegron plus a urinalysis passes', async (t) => {
  const changes = [created(med('mirabegron', 'active')), created(urinalysis)];
  t.ok(untouchedExcept(changes).ok);
});

t.test('stopping a pre-existing order fails unless it is the target', async (t) => {
  const stopDonepezil = updated(med('donepezil', 'active'), med('donepezil', 'stopped', '2'));
  const stopOxybutynin = updated(med('oxybutynin', 'active'), med('oxybutynin', 'stopped', '2'));
  const result = untouchedExcept([stopDonepezil, stopOxybutynin, created(urinalysis)], ['MedicationRequest/oxybutynin']);
  t.notOk(result.ok);
  t.equal(result.mismatches.length, 1);
  t.match(result.mismatches[0], /MedicationRequest\/donepezil existed before the episode and was updated \(status active -> stopped\)/);
  t.ok(untouchedExcept([stopOxybutynin], ['MedicationRequest/oxybutynin']).ok);
});

t.test('deleting counts as touching; a re-save of the same content does not', async (t) => {
  const deleted: ResourceChange = { type: 'MedicationRequest', id: 'donepezil', action: 'deleted', before: med('donepezil', 'active'), after: null, versions: [] };
  t.notOk(untouchedExcept([deleted]).ok);
  t.ok(untouchedExcept([updated(med('donepezil', 'active', '1'), med('donepezil', 'active', '2'))]).ok, 'only meta changed');
  const createdThenDeleted: ResourceChange = { type: 'ServiceRequest', id: 'x', action: 'created-then-deleted', before: null, after: null, versions: [] };
  t.ok(untouchedExcept([createdThenDeleted]).ok, 'its own scratch order');
});

t.test('allow and types narrow what counts', async (t) => {
  const problem: ResourceChange = { type: 'Condition', id: 'c1', action: 'updated', before: { resourceType: 'Condition', id: 'c1', subject, clinicalStatus: { text: 'active' } }, after: { resourceType: 'Condition', id: 'c1', subject, clinicalStatus: { text: 'resolved' } }, versions: [] };
  t.notOk(untouchedExcept([problem]).ok, 'every type counts by default');
  t.ok(untouchedExcept([problem], [], { types: ['MedicationRequest', 'ServiceRequest'] }).ok, 'orders only');
  t.ok(untouchedExcept([problem], [], { allow: (c) => c.type === 'Condition' }).ok, 'predicate');
  t.ok(untouchedExcept([problem], [], { allow: ['Condition/c1'] }).ok, 'reference list');
});
