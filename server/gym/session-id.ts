// Session ids: unguessable (144 random bits) and safe as one URL path segment (base64url: A-Z a-z 0-9 - _).
import { randomBytes } from 'node:crypto';

const ID_BYTES = 18;
const WELL_FORMED = /^[A-Za-z0-9_-]{24}$/;

export function newSessionId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

/** Shape check before any lookup, so junk ids never reach storage and always get the same 404. */
export function isWellFormedSessionId(id: string): boolean {
  return WELL_FORMED.test(id);
}
