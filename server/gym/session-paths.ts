// Requests meant for a session's FHIR base that miss it: `/fhir/_SESSION/{id}`, `/fhir/./_session/{id}`,
// `/fhir/_session%2F{id}`, `/fhir/_session%252F{id}`, `/fhir;_session/{id}`. The router sends them to the default
// base (/fhir), whose audit log anyone may read; left alone they would put another session's id, and the body sent to
// it, in that public log. They are refused before any FHIR routing and never recorded.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../resources/outcome.ts';

/** The route of a session's FHIR base in server/app.ts; every other route under /fhir is the default base's. */
const SESSION_ROUTE = '/fhir/_session/:sessionId';

/** How many rounds of %-decoding are undone: `%25` nests, and each proxy or client on the way may decode once. */
const DECODE_ROUNDS = 4;

/**
 * Whether the path (query left out) names `_session` in any case or escaping. No FHIR path below a base holds it: a
 * FHIR id cannot contain `_`, and no interaction, parameter or operation is called that.
 */
export function mentionsSessionBase(url: string): boolean {
  let path = url.split('?', 1)[0];
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    if (/_session/i.test(path)) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // A malformed escape: decode what can be decoded, leave the rest as sent.
      decoded = path.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      });
    }
    if (decoded === path) return false;
    path = decoded;
  }
  return /_session/i.test(path);
}

/** Whether a request routed to the default base (/fhir) was aimed at a session base instead. */
export function missedSessionBase(routeUrl: string | undefined, url: string): boolean {
  return routeUrl !== undefined && routeUrl.startsWith('/fhir') && !routeUrl.startsWith(SESSION_ROUTE) && mentionsSessionBase(url);
}

/** Refuses such requests with a 404 OperationOutcome before their body is parsed or any interaction runs. */
export function registerSessionPathGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (missedSessionBase(request.routeOptions.url, request.url)) {
      throw notFound('This path is not a FHIR base: a session\'s base is exactly /fhir/_session/{id} (lower case, unescaped, no dot segments)');
    }
  });
}
