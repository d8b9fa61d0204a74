// One place renders every failure as an OperationOutcome with the right status; nothing a client sends is a 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FhirError, issue, outcome } from '../../resources/outcome.ts';
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
  app.setErrorHandler(renderError);
  app.setNotFoundHandler((request, reply) => {
    const oo = outcome(issue('error', 'not-found', `Nothing at ${request.method} ${request.url.split('?')[0]}`));
    reply.code(404).type(FHIR_JSON).send(JSON.stringify(oo));
  });
}
