import t from 'tap';
import type { CodeableConcept, DocumentReference } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import { LOINC } from '../../../graders/lib/codings.ts';
import { clinicalNote, CONSULT_NOTE, findEpisodeNote, findNote, noteText, PROGRESS_NOTE } from '../../../graders/lib/notes.ts';

const US_CORE_CATEGORY = 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category';
// Non-ASCII, a newline and characters base64 pads differently: a lossy or latin1 encoding would not round-trip.
const text = 'Nephrology e-consult.\neGFR 38 mL/min/1.73m², K 5.1 mmol/L; ≥ 20 → start SGLT2i.';
const base = { patient: 'p1', author: 'Practitioner/pcp-rivera', date: '2024-03-15T14:00:00Z', description: 'Nephrology e-consult: CKD', text };

t.test('clinicalNote: a final, current consult note for the patient by the author at the given time', async (t) => {
  const doc = clinicalNote(base);
  t.equal(doc.resourceType, 'DocumentReference');
  t.equal(doc.status, 'current');
  t.equal(doc.docStatus, 'final');
  t.same(doc.type, { coding: [{ system: LOINC, code: '11488-4', display: 'Consult note' }] });
  t.same(doc.category, [{ coding: [{ system: US_CORE_CATEGORY, code: 'clinical-note', display: 'Clinical Note' }] }]);
  t.same(doc.subject, { reference: 'Patient/p1' });
  t.same(doc.author, [{ reference: 'Practitioner/pcp-rivera' }]);
  t.equal(doc.date, '2024-03-15T14:00:00Z');
  t.equal(doc.description, 'Nephrology e-consult: CKD');
  t.equal(doc.content.length, 1);
  t.equal(doc.content[0].attachment.contentType, 'text/plain');
  t.not(doc.content[0].attachment.data, text, 'the text is encoded, not stored as is');
  t.equal(noteText(doc), text, 'noteText decodes the exact text back');
  t.notOk('title' in doc.content[0].attachment, 'no title unless one is given');
  t.notOk('id' in doc, 'the server assigns the id');
});

t.test('clinicalNote options: title, type and category', async (t) => {
  t.equal(clinicalNote({ ...base, title: 'Nephrology e-consult' }).content[0].attachment.title, 'Nephrology e-consult');
  t.same(clinicalNote({ ...base, type: PROGRESS_NOTE }).type, { coding: [{ system: LOINC, code: '11506-3', display: 'Progress note' }] });
  const discharge: CodeableConcept[] = [{ coding: [{ system: LOINC, code: '18842-5' }] }];
  t.same(clinicalNote({ ...base, category: discharge }).category, discharge);
});

t.test('clinicalNote: notes do not share the default codings', async (t) => {
  const first = clinicalNote(base);
  first.type!.coding![0].code = 'changed';
  first.category![0].coding![0].code = 'changed';
  const second = clinicalNote(base);
  t.equal(second.type!.coding![0].code, '11488-4');
  t.equal(second.category![0].coding![0].code, 'clinical-note');
  t.equal(CONSULT_NOTE.code, '11488-4');
});

t.test('a built note is what findNote looks for', async (t) => {
  const m = findNote([clinicalNote(base)], { patient: 'p1', type: [{ system: LOINC, codes: ['11488-4'] }], mustMention: ['sglt2i'], mustQuote: [{ value: 5.1, what: 'potassium' }] });
  t.ok(m.ok, m.mismatches.join('\n'));
  t.notOk(findNote([clinicalNote({ ...base, patient: 'p2' })], { patient: 'p1' }).ok, 'another patient');
});

t.test('findEpisodeNote: only the notes the episode created for the patient count', async (t) => {
  const mine = clinicalNote({ ...base, text: 'Folic acid started; lisinopril stopped.' });
  const other = clinicalNote({ ...base, patient: 'p2', text: 'Folic acid started; lisinopril stopped.' });
  const created = (after: DocumentReference): ResourceChange => ({ type: 'DocumentReference', id: 'n1', action: 'created', before: null, after, versions: [] });
  t.ok(findEpisodeNote([created(mine)], 'p1', { mustMention: ['folic'] }).ok, "the patient's new note");
  t.notOk(findEpisodeNote([created(other)], 'p1').ok, "another patient's note does not count");
  t.notOk(findEpisodeNote([], 'p1').ok, 'no note written');
});
