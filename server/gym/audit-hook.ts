// The audit log as a response hook: every request under a FHIR base (a session's, or /fhir for the default
// session) is recorded once its response is sent, whatever interaction or error produced it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseQueryString, splitTarget } from '../fhir-request.ts';
import { DEFAULT_SANDBOX } from '../../resources/storage/sandbox.ts';
import type { SessionManager } from './sessions.ts';
import { missedSessionBase } from './session-paths.ts';
import { INTERNAL_HEADER } from './task-service.ts';

/** Requests made by the gym's tool executor carry the tool's name in this header. */
export const TOOL_HEADER = 'x-ehr-gym-tool';

const SESSION_ROUTE = '/fhir/_session/:sessionId';
const SESSION_BASE = /^\/+fhir\/+_session\/+[^/?]+/;
const DEFAULT_BASE = /^\/+fhir/;

export function registerAuditHook(app: FastifyInstance, sessions: SessionManager): void {
  app.addHook('onResponse', (request, reply, done) => {
    // The server's own reads (a grader reading the final state, server/gym/task-service.ts) are not the agent's.
    if (request.headers[INTERNAL_HEADER] === sessions.internalKey) {
      done();
      return;
    }
    const sandbox = auditedSandbox(request, sessions);
    const session = sandbox === undefined ? undefined : sessions.get(sandbox);
    if (session) {
      const [rawPath, rawQuery] = splitTarget(request.url);
      const base = sandbox === DEFAULT_SANDBOX ? DEFAULT_BASE : SESSION_BASE;
      const tool = request.headers[TOOL_HEADER];
      sessions.audit.record(session.meta.id, {
        time: session.repo.now.toISOString(),
        method: request.method,
        path: rawPath.replace(base, '').replace(/^\/+/, ''),
        query: parseQueryString(rawQuery),
        status: reply.statusCode,
        // Set by the FHIR routes; a request refused before routing (bad escape, unknown session) wrote nothing.
        write: request.fhirWrite ?? false,
        ...(request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined ? { requestBody: request.body } : {}),
        // Read from the answer before it was serialized (server/http/returned-ids.ts); an error answer returned none.
        resourceIds: request.fhirResourceIds ?? [],
        latencyMs: Math.round(reply.elapsedTime * 1000) / 1000,
        ...(typeof tool === 'string' ? { tool } : {}),
      });
    }
    done();
  });
}

/** The sandbox a request addressed through a FHIR base, or undefined (gym API, unknown session, no route). */
function auditedSandbox(request: FastifyRequest, sessions: SessionManager): string | undefined {
  const url = request.routeOptions.url;
  if (!url || !url.startsWith('/fhir')) return undefined;
  if (url.startsWith(SESSION_ROUTE)) {
    const id = (request.params as { sessionId?: string }).sessionId;
    return id !== undefined && sessions.has(id) ? id : undefined;
  }
  // Aimed at a session base and missed (server/gym/session-paths.ts): nobody's request, so nobody's log.
  return missedSessionBase(url, request.url) ? undefined : DEFAULT_SANDBOX;
}
