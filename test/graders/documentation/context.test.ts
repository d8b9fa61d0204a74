// Documentation checks over an episode: notes found in the session's changes and deliverables, the chart read over
// HTTP from a real server (the same reads a grader makes), the per-note report.
import t from 'tap';
import type { Bundle, DocumentReference, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../../contracts/fhir-client.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import { chartFromFhir, documentationReports, grounded, writtenNotes } from '../../../graders/documentation/index.ts';
import { startServer } from '../../server/test-server.ts';
import { fixtureChart, NOTE_DATE } from '../../../graders/documentation/validation/fixture-chart.ts';

const note = (id: string, text: string, patient = 'p1'): DocumentReference => ({
  resourceType: 'DocumentReference', id, status: 'current', subject: { reference: `Patient/${patient}` }, date: NOTE_DATE,
  content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
});
const change = (r: Resource, action: ResourceChange['action'] = 'created'): ResourceChange => ({ type: r.resourceType, id: r.id!, action, before: null, after: r, versions: [] });

t.test('writtenNotes: the patient\'s notes from the changes, then text deliverables', async (t) => {
  const notes = writtenNotes({
    patient: 'p1',
    changes: [change(note('n1', 'K 5.9')), change(note('n2', 'other patient', 'p2')), change({ resourceType: 'Observation', id: 'o' } as Resource), change(note('n3', 'gone'), 'created-then-deleted')],
    files: { 'consult.md': 'A1c 8.1%', empty: ' ' },
  });
  t.same(notes.map((n) => n.source), ['DocumentReference/n1', 'file:consult.md']);
});

t.test('over HTTP: the chart a grader reads verifies the note', async (t) => {
  const h = await startServer(t);
  const tx: Bundle = { resourceType: 'Bundle', type: 'transaction', entry: fixtureChart.map((r) => ({ resource: r, request: { method: 'PUT', url: `${r.resourceType}/${r.id}` } })) };
  const res = await h.app.inject({ method: 'POST', url: '/fhir', headers: { 'content-type': 'application/fhir+json' }, payload: tx });
  t.equal(res.statusCode, 200);
  const fhir = new FhirClient(h.baseUrl);
  const chart = await chartFromFhir(fhir, 'p1');
  t.ok(chart.get('Observation/k-new'));
  t.ok(chart.get('MedicationRequest/furosemide'));
  t.ok(grounded('Potassium 5.9 mmol/L on 2026-03-02. On metformin 1000 mg twice daily.', chart, { asOf: NOTE_DATE }).pass);
  const reports = await documentationReports({
    fhir, patient: 'p1', now: NOTE_DATE, files: {},
    changes: [change(note('n1', 'Potassium 5.9 mmol/L on 2026-03-02. Taking warfarin 5 mg daily.'))],
  });
  t.equal(reports.length, 1);
  t.same([reports[0].source, reports[0].supported, reports[0].unsupported, reports[0].contradicted], ['DocumentReference/n1', 1, 1, 0]);
});
