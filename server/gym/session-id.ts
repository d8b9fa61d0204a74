// Session ids: unguessable (144 random bits) and safe as one URL path segment (base64url: A-Z a-z 0-9 - _). A server
// started as one replica of several (`serve --replica-id r1`) puts its replica id in front, `r1.<random>`, so a load
// balancer can route every later request of the session to the replica holding it (server/gym/replicas.ts); `.` is
// not a base64url character, so the split is unambiguous.
import { randomBytes } from 'node:crypto';

const ID_BYTES = 18;
const WELL_FORMED = /^(?:[a-z0-9]{1,16}\.)?[A-Za-z0-9_-]{24}$/;

/** A replica id: lower-case letters and digits, 1-16 of them. */
export const REPLICA_ID = /^[a-z0-9]{1,16}$/;

export function newSessionId(replicaId?: string): string {
  const random = randomBytes(ID_BYTES).toString('base64url');
  return replicaId === undefined ? random : `${replicaId}.${random}`;
}

/** Shape check before any lookup, so junk ids never reach storage and always get the same 404. */
export function isWellFormedSessionId(id: string): boolean {
  return WELL_FORMED.test(id);
}
