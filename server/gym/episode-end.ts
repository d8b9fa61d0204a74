// A session's episode ends with its first submit (or a grade): from then on its FHIR base refuses writes with a 409
// OperationOutcome, so the state a grader reads is the state the answer was given in. A Fastify hook before the FHIR
// routes' handler, deciding "a write" with the one definition (server/write-kind.ts); the refused request is still
// audited, as a write.
import type { FastifyInstance } from 'fastify';
import { splitTarget } from '../fhir-request.ts';
import type { OperationTable } from '../fhir-request.ts';
import { isWriteRequest } from '../write-kind.ts';
import { episodeOver, type SessionManager } from './sessions.ts';

const SESSION_ROUTE = '/fhir/_session/:sessionId';
const SESSION_BASE = /^\/+fhir\/+_session\/+[^/?]+/;

export function registerEpisodeEndGuard(app: FastifyInstance, sessions: SessionManager, operations: OperationTable): void {
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.url?.startsWith(SESSION_ROUTE)) return;
    const id = (request.params as { sessionId?: string }).sessionId;
    if (id === undefined || !sessions.has(id)) return;
    const end = sessions.get(id)?.meta.ended;
    if (!end) return;
    const path = splitTarget(request.url)[0].replace(SESSION_BASE, '');
    if (!isWriteRequest(request.method, path, request.body, operations)) return;
    request.fhirWrite = true;
    throw episodeOver(id, end, 'its FHIR base takes no more writes');
  });
}
