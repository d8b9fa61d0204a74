// The HTTP face of one FHIR base: every method and path below the prefix goes through the FHIR router.
// Registered at /fhir (the default sandbox) and at /fhir/_session/:sessionId (a gym session).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FhirRequest, FhirResponse, HttpMethod } from '../fhir-request.ts';
import { parseQueryString, queryValue, splitTarget } from '../fhir-request.ts';
import type { ServerContext } from '../fhir-request.ts';
import type { Repository } from '../../resources/storage/repository.ts';
import { route } from '../router.ts';
import { isWriteRequest } from '../write-kind.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether this request is a write (server/write-kind.ts), set once it reaches the FHIR router. */
    fhirWrite?: boolean;
    /** `Type/id` of every resource the answer returned (server/http/returned-ids.ts), set when it is sent. */
    fhirResourceIds?: string[];
  }
}
import { assertJsonAcceptable, FHIR_JSON, mediaType } from './content-type.ts';
import type { PublicRoot } from './public-url.ts';
import { isTabularOperationPath } from '../../contracts/operations.ts';
import { returnedResourceIds } from './returned-ids.ts';
import type { ReadPool } from '../read-pool/pool.ts';
import { runsOffThread } from '../read-pool/protocol.ts';

export interface FhirRoutesOptions {
  context: ServerContext;
  /** The repository for the sandbox a request addresses (throws a 404 FhirError for an unknown session). */
  repositoryFor(sessionId: string | undefined): Repository;
  /** The server's public root URL (never the Host header): the start of every absolute URL in an answer. */
  publicRoot: PublicRoot;
  /** Where reads that can be heavy are answered (server/read-pool/); without one, here. */
  readPool?: ReadPool;
}

export async function fhirRoutes(app: FastifyInstance, options: FhirRoutesOptions): Promise<void> {
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    const fhirRequest = toFhirRequest(request, options);
    request.fhirWrite = isWriteRequest(fhirRequest.method, fhirRequest.path, fhirRequest.body, options.context.operations);
    if (options.readPool && runsOffThread(fhirRequest.method, fhirRequest.path, request.fhirWrite)) {
      return options.readPool.run(fhirRequest).then((done) => sendFhir(reply, done, fhirRequest.query));
    }
    const response = route(fhirRequest);
    if (response.deferred) return response.deferred.then((done) => sendFhir(reply, done, fhirRequest.query));
    sendFhir(reply, response, fhirRequest.query);
  };
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];
  app.route({ method: methods, url: '/', handler, exposeHeadRoute: false });
  app.route({ method: methods, url: '/*', handler, exposeHeadRoute: false });
}

export function toFhirRequest(request: FastifyRequest, options: FhirRoutesOptions): FhirRequest {
  const sessionId = (request.params as { sessionId?: string }).sessionId;
  const [rawPath, rawQuery] = splitTarget(request.url);
  const query = parseQueryString(rawQuery);
  // Tabular operations ($run, $sqlquery-run) take _format json|ndjson|csv as an operation parameter.
  if (!isTabularOperationPath(rawPath)) assertJsonAcceptable(queryValue(query, '_format'), request.headers.accept);
  const prefix = basePath(rawPath, sessionId);
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return {
    method: request.method as HttpMethod,
    path: rawPath.slice(prefix.length),
    query,
    body: request.body,
    ...(request.jsonText !== undefined ? { jsonText: request.jsonText } : {}),
    contentType: mediaType(request),
    headers,
    baseUrl: `${options.publicRoot()}${sessionId === undefined ? '/fhir' : `/fhir/_session/${sessionId}`}`,
    repo: options.repositoryFor(sessionId),
    context: options.context,
  };
}

/** The part of the raw path that names the FHIR base (`/fhir` or `/fhir/_session/<id>`), duplicate slashes allowed. */
function basePath(rawPath: string, sessionId: string | undefined): string {
  const pattern = sessionId ? /^\/+fhir\/+_session\/+[^/]+/ : /^\/+fhir/;
  return pattern.exec(rawPath)?.[0] ?? '';
}

export function sendFhir(reply: FastifyReply, response: FhirResponse, query: [string, string][]): void {
  reply.request.fhirResourceIds = returnedResourceIds(response);
  reply.code(response.status);
  if (response.headers) reply.headers(response.headers);
  if (!response.headers?.['content-type']) reply.type(FHIR_JSON);
  if (response.stream) {
    // Pulled chunk by chunk as the socket drains; Fastify destroys it if the client disconnects.
    reply.send(Readable.from(response.stream));
    return;
  }
  if (response.body === undefined) {
    reply.send();
    return;
  }
  const pretty = queryValue(query, '_pretty') === 'true' && !response.headers?.['content-type'];
  if (typeof response.body === 'string') {
    reply.send(pretty ? JSON.stringify(JSON.parse(response.body), null, 2) : response.body);
  } else {
    reply.send(JSON.stringify(response.body, null, pretty ? 2 : undefined));
  }
}
