// One place renders every failure as an OperationOutcome with the right status; nothing a client sends is a 500.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, FhirError, issue, outcome } from '../../resources/outcome.ts';
import { FHIR_JSON } from './content-type.ts';

/** Fastify's own client errors, mapped to the FHIR status and issue code they amount to. */
const FASTIFY_ERRORS: Record<string, [number, 'invalid' | 'too-costly' | 'not-supported' | 'structure']> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'too-costly'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'not-supported'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'not-supported'],
  FST_ERR_BAD_URL: [400, 'invalid'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'invalid'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'too-costly'],
};

export function toFhirError(err: unknown): FhirError {
  if (err instanceof FhirError) return err;
  const fe = err as FastifyError;
  const mapped = fe?.code ? FASTIFY_ERRORS[fe.code] : undefined;
  if (mapped) return new FhirError(mapped[0], [issue('error', mapped[1], fe.message)]);
  // A route schema refused the request (the gym API's bodies and queries): one issue per problem, located.
  if (fe?.validation) {
    return new FhirError(400, fe.validation.map((v) => {
      const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty;
      const where = [...v.instancePath.split('/').filter(Boolean), ...(missing ? [missing] : [])].join('.');
      return issue('error', 'invalid', `${fe.validationContext ?? 'request'}${where ? `.${where}` : ''} ${v.message ?? 'is invalid'}`, where ? [where] : undefined);
    }));
  }
  if (fe?.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new FhirError(fe.statusCode, [issue('error', 'invalid', fe.message)]);
  }
  return new FhirError(500, [issue('fatal', 'exception', `Internal error: ${(err as Error)?.message ?? String(err)}`)]);
}

/**
 * Renders any failure as an OperationOutcome. Also passed to Fastify as `frameworkErrors`: errors raised by the
 * router before any route runs (a malformed %-escape in the path) bypass the error handler otherwise.
 */
export function renderError(err: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const fhirError = toFhirError(err);
  if (fhirError.status >= 500) request.log.error({ err }, 'unhandled error');
  reply.code(fhirError.status).headers(fhirError.headers).type(FHIR_JSON).send(JSON.stringify(fhirError.outcome));
}

export function registerErrorHandlers(app: FastifyInstance): void {
  // RFC 9112 section 3.2: an HTTP/1.1 request without Host is a 400. Node's own check (turned off in server/app.ts,
  // `requireHostHeader: false`) answers it with an empty body that no handler sees; this one is an OperationOutcome.
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
      throw badRequest('An HTTP/1.1 request must carry a Host header (RFC 9112 section 3.2)');
    }
  });
  app.setErrorHandler(renderError);
  app.setNotFoundHandler((request, reply) => {
    const oo = outcome(issue('error', 'not-found', `Nothing at ${request.method} ${request.url.split('?')[0]}`));
    reply.code(404).type(FHIR_JSON).send(JSON.stringify(oo));
  });
}

/** Node's HTTP parser errors (error codes of llhttp and node:http), mapped like FASTIFY_ERRORS. */
const PARSER_ERRORS: Record<string, [number, 'invalid' | 'too-costly' | 'timeout', string]> = {
  HPE_HEADER_OVERFLOW: [431, 'too-costly', 'The request\'s headers are larger than the server accepts (16 KB in all)'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'timeout', 'The request was not received in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'timeout', 'The request\'s headers were not received in time'],
};

/**
 * The `clientError` handler (Fastify's `clientErrorHandler`): requests Node's HTTP parser refuses (a control byte in
 * the path or a header, headers over the size limit, a malformed request line or chunk) never reach Fastify, so
 * their answer is written to the socket here: an OperationOutcome like every other 4xx, then the connection closes.
 */
export function renderClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset or closed connection has no one to answer (Node's documented pattern for this event).
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  // Mid-response on a kept-alive connection (Node keeps the response it was writing here): too late to answer.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, diagnostics] = PARSER_ERRORS[err.code ?? '']
    ?? [400, 'invalid', `The request is not well-formed HTTP/1.1 (${err.code ?? 'parse error'}: ${(err as { reason?: string }).reason ?? err.message})`];
  const body = JSON.stringify(outcome(issue('error', code, diagnostics)));
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${FHIR_JSON}\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
