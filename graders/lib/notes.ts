// Notes: a DocumentReference for the patient whose text (base64 attachment data, decoded) holds the required facts;
// `clinicalNote` builds one the way the reference solutions write it, `noteText` reads it back.
import type { CodeableConcept, Coding, DocumentReference } from '@medplum/fhirtypes';
import { describeConcept, inCodeSet, LOINC, type CodeSet } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { matchTerms, numbersIn } from './answers.ts';
import { checkOneOf, checkPatient, label } from './resources.ts';
import { createdResources } from './changes.ts';
import type { ResourceChange } from '../../contracts/gym-api.ts';
import { withinTolerance } from '../../resources/units/ucum.ts';

export interface NoteExpectation {
  patient?: string;
  status?: string[];
  type?: CodeSet[];
  /** Terms that must all appear (each may be a list of synonyms). */
  mustMention?: (string | string[])[];
  /** Numbers that must appear (e.g. the latest potassium), within tolerance. */
  mustQuote?: { value: number; tolerance?: { absolute?: number; relative?: number }; what: string }[];
  minLength?: number;
}

/** LOINC document types (DocumentReference.type) the reference solutions write. */
export const CONSULT_NOTE: Coding = { system: LOINC, code: '11488-4', display: 'Consult note' };
export const PROGRESS_NOTE: Coding = { system: LOINC, code: '11506-3', display: 'Progress note' };

/** US Core DocumentReference.category (1..* in US Core): a clinical note. */
export const CLINICAL_NOTE_CATEGORY: CodeableConcept = {
  coding: [{ system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', code: 'clinical-note', display: 'Clinical Note' }],
};

export interface ClinicalNote {
  /** The patient's id (not a reference). */
  patient: string;
  /** The author's reference, e.g. the task's requester `Practitioner/pcp-rivera`. */
  author: string;
  /** When the note was written: the episode clock `now`. */
  date: string;
  description: string;
  /** The note itself, stored as base64 text/plain in content[0].attachment.data. */
  text: string;
  /** The attachment's title. */
  title?: string;
  /** Default: a consult note (LOINC 11488-4). */
  type?: Coding;
  /** Default: US Core clinical-note. */
  category?: CodeableConcept[];
}

/** A final, current note for the patient, as a careful agent writes it: coded type and category, inline text. */
export function clinicalNote(note: ClinicalNote): DocumentReference {
  return {
    resourceType: 'DocumentReference', status: 'current', docStatus: 'final',
    type: { coding: [{ ...(note.type ?? CONSULT_NOTE) }] },
    category: structuredClone(note.category ?? [CLINICAL_NOTE_CATEGORY]),
    subject: { reference: `Patient/${note.patient}` }, date: note.date, author: [{ reference: note.author }],
    description: note.description,
    content: [{
      attachment: { contentType: 'text/plain', data: Buffer.from(note.text, 'utf8').toString('base64'), ...(note.title ? { title: note.title } : {}) },
    }],
  };
}

/** The text of every text/* (or JSON/XML) attachment, base64-decoded, joined. */
export function noteText(doc: DocumentReference): string {
  return (doc.content ?? [])
    .map((c) => c.attachment)
    .filter((a) => a?.data && (!a.contentType || /^(text\/|application\/(json|xml))/i.test(a.contentType)))
    .map((a) => Buffer.from(a!.data!, 'base64').toString('utf8'))
    .join('\n');
}

export function matchNote(doc: DocumentReference, expected: NoteExpectation): Match<DocumentReference> {
  const mismatches: string[] = [];
  checkPatient(doc, expected.patient, mismatches);
  checkOneOf('status', doc.status, expected.status ?? ['current'], mismatches);
  if (expected.type && !inCodeSet(doc.type, expected.type)) mismatches.push(`type is ${describeConcept(doc.type)}`);
  const text = noteText(doc);
  if (!text) mismatches.push('has no text attachment (content.attachment.data, base64)');
  if (expected.minLength && text.length < expected.minLength) mismatches.push(`text is ${text.length} characters, expected at least ${expected.minLength}`);
  if (expected.mustMention) mismatches.push(...matchTerms(text, expected.mustMention).mismatches);
  const numbers = numbersIn(text);
  for (const q of expected.mustQuote ?? []) {
    if (!numbers.some((n) => withinTolerance(n.value, q.value, q.tolerance ?? { absolute: 1e-9 }))) mismatches.push(`does not quote the ${q.what} (${q.value})`);
  }
  return matchOf(mismatches, [`${label(doc)}: ${text.length} characters`], doc);
}

export function findNote(docs: DocumentReference[], expected: NoteExpectation): Match<DocumentReference> {
  return bestOf(docs, (d) => matchNote(d, expected), label, 'no DocumentReference was written');
}

/** The note the episode wrote for the patient: the best of the DocumentReferences it created for them (current, with
 * text, `expected` met), so a note task checks what was written rather than what was on the chart before. */
export function findEpisodeNote(changes: ResourceChange[], patient: string, expected: NoteExpectation = {}): Match<DocumentReference> {
  const written = createdResources<DocumentReference>(changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${patient}`);
  return findNote(written, { status: ['current'], ...expected, patient });
}
