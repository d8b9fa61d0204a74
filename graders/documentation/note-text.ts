// The text of a note, whatever carries it: a DocumentReference (base64 attachment), a Communication (payload
// strings or attachments), or plain text (a submitted deliverable).
import type { Communication, DocumentReference } from '@medplum/fhirtypes';

export type NoteInput = string | DocumentReference | Communication;

export function noteTextOf(note: NoteInput): string {
  if (typeof note === 'string') return note;
  const decode = (a: { data?: string; contentType?: string } | undefined) =>
    a?.data && (!a.contentType || /^(text\/|application\/(json|xml))/i.test(a.contentType)) ? Buffer.from(a.data, 'base64').toString('utf8') : '';
  if (note.resourceType === 'DocumentReference') return (note.content ?? []).map((c) => decode(c.attachment)).filter(Boolean).join('\n');
  return (note.payload ?? []).map((p) => p.contentString ?? decode(p.contentAttachment)).filter(Boolean).join('\n');
}

/** The date a note speaks from (DocumentReference.date, Communication.sent), as ISO text. */
export function noteDateOf(note: NoteInput): string | undefined {
  if (typeof note === 'string') return undefined;
  return note.resourceType === 'DocumentReference' ? note.date : note.sent;
}
