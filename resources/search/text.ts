// The text `_text` and `_content` search (FHIR R4 3.1.1.5.9 / 3.1.1.5.10): `_text` looks in the narrative and
// clinical notes, `_content` in all of the resource's text, including text attachments (e.g. a DocumentReference's
// base64 note) decoded.
import type { Resource } from '@medplum/fhirtypes';

type Obj = Record<string, unknown>;

export function documentText(resource: Resource): { narrative: string; content: string } | undefined {
  const r = resource as unknown as Obj;
  const parts: string[] = [];
  const div = (r.text as Obj | undefined)?.div;
  if (typeof div === 'string') parts.push(stripTags(div));
  if (Array.isArray(r.note)) for (const n of r.note as Obj[]) if (typeof n?.text === 'string') parts.push(n.text);
  const attachments: string[] = [];
  collectAttachments(r, attachments, 0);
  const strings: string[] = [];
  collectStrings(r, strings, 0);
  const narrative = [...parts, ...attachments].join('\n');
  const content = [narrative, ...strings].join('\n');
  if (!content.trim()) return undefined;
  return { narrative, content };
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** Attachments with inline text data (text/* or no content type), decoded. */
function collectAttachments(value: unknown, out: string[], depth: number): void {
  if (depth > 6 || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collectAttachments(v, out, depth + 1);
    return;
  }
  const o = value as Obj;
  if (typeof o.data === 'string' && (o.contentType === undefined || String(o.contentType).startsWith('text/'))) {
    try {
      out.push(Buffer.from(o.data, 'base64').toString('utf8'));
    } catch {
      // not base64: nothing to index
    }
  }
  for (const key in o) if (key !== 'data' && key !== 'text' && typeof o[key] === 'object') collectAttachments(o[key], out, depth + 1);
}

/** Human-readable strings of the resource (not ids, references, systems or the narrative markup). */
function collectStrings(value: unknown, out: string[], depth: number): void {
  if (depth > 8) return;
  if (Array.isArray(value)) {
    for (const v of value) collectStrings(v, out, depth + 1);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const o = value as Obj;
  for (const key in o) {
    const v = o[key];
    if (typeof v === 'string') {
      if (key === 'display' || key === 'text' || key === 'family' || key === 'given' || key === 'name' || key === 'description' || key === 'title' || key === 'valueString' || key === 'comment' || key === 'city' || key === 'line') out.push(v);
    } else if (Array.isArray(v) && (key === 'given' || key === 'line' || key === 'prefix')) {
      for (const x of v) if (typeof x === 'string') out.push(x);
    } else if (v && typeof v === 'object' && key !== 'meta' && !(key === 'text' && 'div' in (v as Obj))) {
      collectStrings(v, out, depth + 1);
    }
  }
}
