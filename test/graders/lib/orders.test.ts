// Service requests, discontinuations, problem-list changes, referrals, communications, appointments and notes.
import t from 'tap';
import type { Appointment, Communication, Condition, DocumentReference, MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import { LOINC, SNOMED } from '../../../graders/lib/codings.ts';
import { findServiceRequest, matchServiceRequest, SERVICE_CATEGORIES } from '../../../graders/lib/service-requests.ts';
import { matchDiscontinuation } from '../../../graders/lib/discontinuations.ts';
import { findProblemChange } from '../../../graders/lib/conditions.ts';
import { matchCommunication, matchReferral } from '../../../graders/lib/referrals.ts';
import { matchAppointment } from '../../../graders/lib/appointments.ts';
import { matchNote, noteText } from '../../../graders/lib/notes.ts';

const subject = { reference: 'Patient/p1' };

t.test('service requests: code set, category, priority, occurrence', async (t) => {
  const bmp: ServiceRequest = {
    resourceType: 'ServiceRequest', id: 's1', status: 'active', intent: 'order', subject, priority: 'urgent',
    code: { coding: [{ system: LOINC, code: '51990-0' }] }, category: [{ coding: [{ system: SNOMED, code: '108252007' }] }],
    occurrenceDateTime: '2024-03-16',
  };
  const expected = { patient: 'p1', codes: [{ system: LOINC, codes: ['2823-3', '51990-0'] }], category: [SERVICE_CATEGORIES.laboratory], priority: ['urgent', 'stat'], occurrenceBy: '2024-03-20' };
  t.ok(matchServiceRequest(bmp, expected).ok);
  const wrong = matchServiceRequest({ ...bmp, code: { coding: [{ system: LOINC, code: '2160-0' }] }, priority: undefined, occurrenceDateTime: '2024-04-30' }, expected);
  t.equal(wrong.mismatches.length, 3, wrong.mismatches.join('\n'));
  t.notOk(findServiceRequest([], expected).ok);
});

const medChange = (before: Partial<MedicationRequest> | null, after: Partial<MedicationRequest> | null, action: ResourceChange['action']): ResourceChange => ({
  type: 'MedicationRequest', id: 'm1', action, versions: [],
  before: before && { resourceType: 'MedicationRequest', id: 'm1', intent: 'order', subject, status: 'active', ...before } as MedicationRequest,
  after: after && { resourceType: 'MedicationRequest', id: 'm1', intent: 'order', subject, status: 'active', ...after } as MedicationRequest,
});

t.test('discontinuation: stopped with a reason; deletion and on-hold are not', async (t) => {
  const expected = { reasonRequired: true, reasonWords: ['hyperkal'] };
  t.ok(matchDiscontinuation(medChange({}, { status: 'stopped', statusReason: { text: 'Hyperkalemia' } }, 'updated'), 'MedicationRequest/m1', expected).ok);
  t.notOk(matchDiscontinuation(medChange({}, null, 'deleted'), 'MedicationRequest/m1', expected).ok, 'deleted');
  const hold = matchDiscontinuation(medChange({}, { status: 'on-hold' }, 'updated'), 'MedicationRequest/m1', expected);
  t.equal(hold.mismatches.length, 2, 'wrong status and no reason, both reported');
  t.notOk(matchDiscontinuation(medChange({}, { status: 'stopped', statusReason: { text: 'cough' } }, 'updated'), 'MedicationRequest/m1', expected).ok, 'wrong reason');
  t.notOk(matchDiscontinuation(undefined, 'MedicationRequest/m1', expected).ok, 'untouched');
});

t.test('problem list: resolved condition', async (t) => {
  const condition = (status: string): Condition => ({
    resourceType: 'Condition', id: 'c1', subject, code: { coding: [{ system: SNOMED, code: '44054006' }] },
    clinicalStatus: { coding: [{ code: status }] }, category: [{ coding: [{ code: 'problem-list-item' }] }],
  });
  const change = (after: Condition): ResourceChange => ({ type: 'Condition', id: 'c1', action: 'updated', before: condition('active'), after, versions: [] });
  const expected = { patient: 'p1', codes: [{ system: SNOMED, codes: ['44054006'] }], clinicalStatus: ['resolved', 'inactive'] };
  t.ok(findProblemChange([change(condition('resolved'))], expected).ok);
  t.notOk(findProblemChange([change(condition('active'))], expected).ok);
  t.notOk(findProblemChange([], expected).ok);
});

const nephrology = { specialty: [{ system: SNOMED, codes: ['394589003'] }], specialtyWords: ['nephrology', 'renal'] };

t.test('referral to a specialty by code or words', async (t) => {
  const referral: ServiceRequest = {
    resourceType: 'ServiceRequest', id: 'r1', status: 'active', intent: 'order', subject,
    category: [{ coding: [{ system: SNOMED, code: '3457005' }] }], code: { text: 'Referral' },
    performerType: { text: 'Nephrology clinic' }, reasonCode: [{ text: 'CKD 4, eGFR 24' }],
  };
  t.ok(matchReferral(referral, { ...nephrology, mustMention: ['egfr'] }).ok);
  const cardiology = matchReferral({ ...referral, performerType: { coding: [{ system: SNOMED, code: '394579002', display: 'Cardiology' }] } }, nephrology);
  t.notOk(cardiology.ok, 'the tempting wrong specialty');
  const uncoded: ServiceRequest = { resourceType: 'ServiceRequest', id: 'r2', status: 'active', intent: 'order', subject, code: { text: 'Referral to nephrology' } };
  t.ok(matchReferral(uncoded, nephrology).ok, 'no category: a referral by its own text');
  t.ok(matchReferral({ ...uncoded, code: undefined, performerType: { text: 'Renal clinic' } }, nephrology).ok, 'no category: addressed to a specialty');
  const lab: ServiceRequest = { resourceType: 'ServiceRequest', id: 'r3', status: 'active', intent: 'order', subject, code: { text: 'Renal function panel' } };
  t.match(matchReferral(lab, nephrology).mismatches.join(), /is not a referral/, 'a renal lab order names the organ but is no referral');
  const message: Communication = { resourceType: 'Communication', id: 'c1', status: 'completed', subject, recipient: [{ display: 'Renal consult team' }], payload: [{ contentString: 'Please see: eGFR 24' }] };
  t.ok(matchCommunication(message, { ...nephrology, mustMention: ['egfr'] }).ok);
  t.notOk(matchCommunication({ ...message, payload: [{ contentString: 'please see' }] }, { ...nephrology, mustMention: ['egfr'] }).ok);
});

t.test('appointment window and service', async (t) => {
  const appointment: Appointment = {
    resourceType: 'Appointment', id: 'a1', status: 'booked', start: '2024-03-20T09:00:00Z', end: '2024-03-20T09:30:00Z',
    serviceType: [{ text: 'Nephrology follow-up' }], participant: [{ actor: { reference: 'Patient/p1' }, status: 'accepted' }],
  };
  const expected = { patient: 'p1', serviceWords: ['nephrology'], notBefore: '2024-03-15', notAfter: '2024-04-15' };
  t.ok(matchAppointment(appointment, expected).ok);
  t.notOk(matchAppointment({ ...appointment, start: '2024-06-01T09:00:00Z' }, expected).ok);
  t.notOk(matchAppointment({ ...appointment, status: 'cancelled' }, expected).ok);
});

t.test('notes: base64 text decoded; required facts and numbers checked', async (t) => {
  const text = 'Consult note. K 5.9 mmol/L on lisinopril; lisinopril stopped; repeat BMP in 3 days.';
  const doc: DocumentReference = {
    resourceType: 'DocumentReference', id: 'd1', status: 'current', subject,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
  };
  t.equal(noteText(doc), text);
  const expected = { patient: 'p1', mustMention: ['lisinopril', ['bmp', 'basic metabolic']], mustQuote: [{ value: 5.9, what: 'latest potassium' }] };
  t.ok(matchNote(doc, expected).ok);
  const stale = matchNote(doc, { ...expected, mustQuote: [{ value: 4.8, what: 'latest potassium' }], mustMention: ['nephrology'] });
  t.equal(stale.mismatches.length, 2, stale.mismatches.join('\n'));
  t.notOk(matchNote({ ...doc, content: [{ attachment: { url: 'http://x' } }] }, expected).ok, 'no inline text');
});
