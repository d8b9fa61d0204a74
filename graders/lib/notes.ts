// Notes: a DocumentReference for the patient whose text (base64 attachment data, decoded) holds the required facts.
import type { DocumentReference } from '@medplum/fhirtypes';
import { describeConcept, inCodeSet, type CodeSet } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { matchTerms, numbersIn } from './answers.ts';
import { checkOneOf, checkPatient, label } from './resources.ts';
import { withinTolerance } from './units.ts';

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
