// The operator's bearer token. A session id is a capability: whoever knows it may use that session, and every gym
// route is addressed by an id except GET /gym/sessions, which names every session. That list, and the routes of the
// shared default session that show or wipe what every anonymous caller did (its log, changes, reset and submit),
// answer only to the operator, and not at all when the server has no operator token.
import { createHash, timingSafeEqual } from 'node:crypto';
import { FhirError, issue } from '../../resources/outcome.ts';

/** The environment variable `ehr-gym serve` reads the token from (not a flag: argv is visible to every user in `ps`). */
export const ADMIN_TOKEN_ENV = 'EHR_GYM_ADMIN_TOKEN';

/** What may follow "Bearer " in an Authorization header: RFC 6750 section 2.1, b64token. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Throws the 401 or 403 OperationOutcome unless the Authorization header carries the operator token. `what` names
 * the guarded route(s) in the refusal (default: the session list).
 */
export type OperatorCheck = (authorization: string | undefined, what?: string) => void;

const LIST = 'Listing sessions';

/** `token` undefined or empty: the operator routes are disabled (403 for everyone). */
export function operatorCheck(token: string | undefined): OperatorCheck {
  if (token === undefined || token === '') {
    return (_authorization, what = LIST) => {
      throw new FhirError(403, [issue('error', 'forbidden',
        `${what}: disabled, the server has no operator token (start it with ${ADMIN_TOKEN_ENV} set). A session is reached by its id.`)]);
    };
  }
  // Found at start-up rather than as 401s nobody can get past.
  if (!B64TOKEN.test(token)) throw new Error(`The operator token (${ADMIN_TOKEN_ENV}) must be a bearer token: letters, digits and -._~+/ (then optional =)`);
  const expected = digest(token);
  return (authorization, what = LIST) => {
    const presented = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    // Both sides are SHA-256 digests, so the comparison takes the same time whatever was sent, its length included.
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return;
    throw new FhirError(401,
      [issue('error', 'login', `${what}: the operator token is needed (Authorization: Bearer <token>)`)],
      // RFC 6750 section 3: the challenge, with invalid_token when a token was sent and is not the one.
      { 'www-authenticate': presented === undefined ? 'Bearer realm="ehr-gym"' : 'Bearer realm="ehr-gym", error="invalid_token"' });
  };
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
