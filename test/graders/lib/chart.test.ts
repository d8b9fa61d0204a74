// Chart readers: which result is "the latest" in a window. Fixtures where the tempting answer is wrong: the newest
// result coded only with the local flowsheet code (a LOINC-only search misses it), a newer entered-in-error result,
// a newer result without a value, an offset time that sorts wrongly as a string, a result just outside the window.
import t from 'tap';
import type { Bundle, Observation } from '@medplum/fhirtypes';
import { FhirClient } from '../../../contracts/fhir-client.ts';
import { codeParam, hasValue, hourAsRecorded, latestObservation, observations, recordedResults } from '../../../graders/lib/chart.ts';
import { FLOWSHEET } from '../../../graders/lib/cohort.ts';
import { LOINC } from '../../../graders/lib/codings.ts';
import { startServer } from '../../server/test-server.ts';

const A1C = [{ system: LOINC, codes: ['4548-4'] }, { system: FLOWSHEET, codes: ['A1C'] }];
const NOW = '2025-07-01T12:00:00Z';

function a1c(id: string, when: string, value: number | undefined, options: { system?: string; code?: string; status?: Observation['status']; patient?: string } = {}): Observation {
  return {
    resourceType: 'Observation', id, status: options.status ?? 'final', subject: { reference: `Patient/${options.patient ?? 'p1'}` },
    code: { coding: [{ system: options.system ?? LOINC, code: options.code ?? '4548-4' }] }, effectiveDateTime: when,
    ...(value === undefined ? { dataAbsentReason: { text: 'not done' } } : { valueQuantity: { value, unit: '%', system: 'http://unitsofmeasure.org', code: '%' } }),
  };
}

t.test('codeParam: every system|code of every set, comma-separated', async (t) => {
  t.equal(codeParam(A1C), `${LOINC}|4548-4,${FLOWSHEET}|A1C`);
  t.equal(codeParam([{ system: LOINC, codes: ['a', 'b'] }]), `${LOINC}|a,${LOINC}|b`);
});

t.test('recordedResults: status, codes, window (both ends inclusive) and time order', async (t) => {
  const found = [
    a1c('old', '2024-07-01T12:00:00Z', 7.9), // exactly 365 days before NOW: inside
    a1c('older', '2024-07-01T11:59:59Z', 9.9), // one second earlier: outside
    a1c('eie', '2025-06-20T00:00:00Z', 5.1, { status: 'entered-in-error' }),
    a1c('cancel', '2025-06-21T00:00:00Z', 5.2, { status: 'cancelled' }),
    a1c('offset', '2025-06-10T23:30:00-05:00', 7.2), // 2025-06-11T04:30Z: after 'utc' though it sorts before it as a string
    a1c('utc', '2025-06-11T01:00:00Z', 6.4),
    a1c('future', '2025-07-02T00:00:00Z', 6.0),
    a1c('tsh', '2025-06-30T00:00:00Z', 2.1, { code: '3016-3' }),
  ];
  const ids = (list: Observation[]) => list.map((o) => o.id);
  t.same(ids(recordedResults(found, A1C, { before: NOW, days: 365 })), ['offset', 'utc', 'old']);
  t.same(ids(recordedResults(found, undefined, { before: NOW, days: 365 })), ['tsh', 'offset', 'utc', 'old'], 'without codes, no code filter (the search did it)');
  t.same(ids(recordedResults(found, A1C, { before: NOW })), ['offset', 'utc', 'old', 'older'], 'no lower bound without days');
  t.same(ids(recordedResults(found, A1C)), ['future', 'offset', 'utc', 'old', 'older'], 'no window at all');
});

t.test('recordedResults keeps search order for equal times (a stable sort)', async (t) => {
  const same = '2025-06-01T09:00:00Z';
  const found = [a1c('first', same, 7), a1c('second', '2025-06-01T04:00:00-05:00', 8)];
  t.same(recordedResults(found, A1C).map((o) => o.id), ['first', 'second']);
  t.same(recordedResults([...found].reverse(), A1C).map((o) => o.id), ['second', 'first']);
});

t.test('over HTTP: the latest A1c is the local-code-only result, past a newer entered-in-error and a valueless one', async (t) => {
  const h = await startServer(t);
  const chart: Observation[] = [
    a1c('loinc-older', '2025-03-01T09:00:00Z', 8.4),
    a1c('local-newest', '2025-05-01T09:00:00Z', 6.8, { system: FLOWSHEET, code: 'A1C' }),
    a1c('eie-newer', '2025-06-01T09:00:00Z', 5.0, { status: 'entered-in-error' }),
    a1c('no-value', '2025-06-15T09:00:00Z', undefined),
    a1c('too-old', '2024-01-01T09:00:00Z', 9.9),
    a1c('other-patient', '2025-06-20T09:00:00Z', 12.0, { patient: 'p2' }),
  ];
  const tx: Bundle = {
    resourceType: 'Bundle', type: 'transaction',
    entry: [{ resourceType: 'Patient', id: 'p1' }, { resourceType: 'Patient', id: 'p2' }, ...chart].map((r) => ({ resource: r, request: { method: 'PUT', url: `${r.resourceType}/${r.id}` } })),
  } as Bundle;
  const res = await h.app.inject({ method: 'POST', url: '/fhir', headers: { 'content-type': 'application/fhir+json' }, payload: tx });
  t.equal(res.statusCode, 200, res.body);
  const fhir = new FhirClient(h.baseUrl);

  t.same((await observations(fhir, 'p1', A1C, { before: NOW, days: 365 })).map((o) => o.id), ['no-value', 'local-newest', 'loinc-older']);
  t.equal((await latestObservation(fhir, 'p1', A1C, { before: NOW, days: 365 }))?.id, 'local-newest');
  t.equal((await latestObservation(fhir, 'p1', [A1C[0]], { before: NOW, days: 365 }))?.id, 'loinc-older', 'the LOINC-only reading is the wrong answer');
  t.equal((await latestObservation(fhir, 'p1', A1C, { before: NOW, days: 30 })), undefined, 'nothing with a value in the last 30 days');
  t.equal((await latestObservation(fhir, 'p1', A1C, { before: NOW, days: 30, usable: () => true }))?.id, 'no-value', 'a custom usable test');
  t.equal((await latestObservation(fhir, 'p1', A1C))?.id, 'local-newest', 'no window: still skips entered-in-error and valueless results');
  t.notOk(hasValue(chart[3]));
});

t.test('hourAsRecorded: the clock hour in the offset written, not UTC', async (t) => {
  t.equal(hourAsRecorded('2024-03-01T07:40:00-05:00'), 7, 'a morning draw stays a morning draw');
  t.equal(hourAsRecorded('2024-03-01T23:10:00Z'), 23);
  t.ok(Number.isNaN(hourAsRecorded('2024-03-01')), 'a date has no hour');
});
