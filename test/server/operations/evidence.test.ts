// Patient/[id]/$evidence over HTTP: inject() and fhir-kit-client on a real socket, against the fixture chart written
// into the default sandbox with a transaction.
import t from 'tap';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { assertOutcome, bodyOf, startServer } from '../test-server.ts';
import { EVIDENCE_REASON_URL } from '../../../resources/evidence/bundle.ts';
import { evidenceSearch, evidenceSearchRequest } from '../../../server/tools/evidence.ts';
import { fixtureChart, NOTE_DATE } from '../../../graders/documentation/validation/fixture-chart.ts';

const transaction: Bundle = {
  resourceType: 'Bundle', type: 'transaction',
  entry: [...fixtureChart, { resourceType: 'Patient', id: 'p2' } as Resource, {
    resourceType: 'Observation', id: 'other-k', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] },
    subject: { reference: 'Patient/p2' }, effectiveDateTime: '2026-03-02T08:00:00Z', valueQuantity: { value: 6.5, unit: 'mmol/L' },
  } as Resource].map((r) => ({ resource: r, request: { method: 'PUT' as const, url: `${r.resourceType}/${r.id}` } })),
};

t.test('$evidence', async (t) => {
  const h = await startServer(t);
  const tx = await h.app.inject({ method: 'POST', url: '/fhir', headers: { 'content-type': 'application/fhir+json' }, payload: transaction });
  t.equal(tx.statusCode, 200, 'fixture written', { body: tx.body.slice(0, 300) });

  t.test('a topic: a searchset of the patient\'s items with scores and reasons', async (t) => {
    const res = await h.app.inject({ method: 'GET', url: `/fhir/Patient/p1/$evidence?topic=ckd-progression&_count=5&asOf=${NOTE_DATE}` });
    t.equal(res.statusCode, 200, 'ok', { body: res.body.slice(0, 300) });
    const bundle = bodyOf<Bundle>(res);
    t.equal(bundle.type, 'searchset');
    const matches = (bundle.entry ?? []).filter((e) => e.search?.mode === 'match');
    t.equal(matches.length, 5);
    t.ok(bundle.total! > 5, 'total counts every ranked item');
    const refs = matches.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`);
    t.ok(refs.includes('Observation/egfr-new'), 'latest eGFR among the first five', { refs });
    for (const e of matches) {
      t.ok(e.search!.score! > 0 && e.search!.score! <= 1);
      t.match(e.fullUrl, /^http:\/\/[^/]+\/fhir\/(Observation|Condition|MedicationRequest)\/[a-z]/);
      const reason = e.extension?.find((x) => x.url === EVIDENCE_REASON_URL);
      t.ok(reason?.extension?.some((x) => x.url === 'summary'), 'has a reason');
    }
    const egfr = matches.find((e) => e.resource!.id === 'egfr-new') as BundleEntry;
    const parts = egfr.extension![0].extension!;
    t.ok(parts.some((x) => x.url === 'group' && x.valueCoding?.code === 'evidence-group-renal-function'));
    t.ok(parts.some((x) => x.url === 'abnormal' && x.valueCode === 'L'));
    t.ok(parts.some((x) => x.url === 'trend' && /falling 45 -> 28/.test(x.valueString!)));
    t.notOk(refs.includes('Observation/other-k'), 'another patient\'s results never appear');
  });

  t.test('a question through fhir-kit-client (real socket), POST with Parameters', async (t) => {
    const bundle = await h.client.operation({ name: 'evidence', resourceType: 'Patient', id: 'p1', method: 'GET', input: { question: 'is the potassium dangerous?', asOf: NOTE_DATE } }) as Bundle;
    const first = bundle.entry!.find((e) => e.search?.mode === 'match');
    t.equal(first?.resource?.id, 'k-new');
    const posted = await h.app.inject({
      method: 'POST', url: '/fhir/Patient/p1/$evidence', headers: { 'content-type': 'application/fhir+json' },
      payload: { resourceType: 'Parameters', parameter: [{ name: 'topic', valueString: 'hyperkalemia' }, { name: '_count', valueInteger: 3 }, { name: 'asOf', valueString: NOTE_DATE }] },
    });
    t.equal(posted.statusCode, 200, 'ok', { body: posted.body.slice(0, 300) });
    t.equal(bodyOf<Bundle>(posted).entry!.filter((e) => e.search?.mode === 'match').length, 3);
  });

  t.test('errors are OperationOutcomes with 4xx', async (t) => {
    assertOutcome(t, await h.app.inject({ method: 'GET', url: '/fhir/Patient/nobody/$evidence?topic=hyperkalemia' }), 404);
    assertOutcome(t, await h.app.inject({ method: 'GET', url: '/fhir/Patient/p1/$evidence' }), 400);
    assertOutcome(t, await h.app.inject({ method: 'GET', url: '/fhir/Patient/p1/$evidence?topic=astrology' }), 400);
    assertOutcome(t, await h.app.inject({ method: 'GET', url: '/fhir/Patient/p1/$evidence?topic=hyperkalemia&_count=-1' }), 400);
    assertOutcome(t, await h.app.inject({ method: 'GET', url: '/fhir/Patient/p1/$evidence?topic=hyperkalemia&_count=abc' }), 400);
    assertOutcome(t, await h.app.inject({ method: 'GET', url: '/fhir/Patient/p1/$evidence?topic=hyperkalemia&asOf=yesterday' }), 400);
    assertOutcome(t, await h.app.inject({ method: 'GET', url: '/fhir/Observation/k-new/$evidence?topic=hyperkalemia' }), 404);
  });

  t.test('an unmatched question: an empty searchset with an informational outcome', async (t) => {
    const res = await h.app.inject({ method: 'GET', url: '/fhir/Patient/p1/$evidence?question=what%20about%20the%20weather' });
    const bundle = bodyOf<Bundle>(res);
    t.equal(bundle.total, 0);
    t.equal(bundle.entry?.[0].search?.mode, 'outcome');
  });

  t.test('the evidence_search tool maps to this operation', async (t) => {
    t.equal(evidenceSearch.definition.name, 'evidence_search');
    const call = evidenceSearchRequest({ patient: 'p1', topic: 'hyperkalemia', count: 2 });
    const url = `/fhir/${call.path}?${new URLSearchParams([...call.query, ['asOf', NOTE_DATE]])}`;
    const res = await h.app.inject({ method: call.method, url });
    t.equal(res.statusCode, 200);
    t.equal(bodyOf<Bundle>(res).entry!.filter((e) => e.search?.mode === 'match').length, 2);
  });
});
