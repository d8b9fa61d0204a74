// Request body parsing and response format negotiation (FHIR R4 3.1.0.1.10 "Content Types and encodings").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, notAcceptable } from '../../resources/outcome.ts';
import { parseQueryString } from '../fhir-request.ts';

export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

const JSON_TYPES = ['application/fhir+json', 'application/json', 'application/json-patch+json'];

/** Replace Fastify's parsers: JSON media types parse to values, form bodies to ordered parameter pairs. */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(badRequest(`The body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseQueryString(body as string));
  });
}

/** The body's media type without parameters, lower-case. */
export function mediaType(request: FastifyRequest): string | undefined {
  const header = request.headers['content-type'];
  return header ? header.split(';')[0].trim().toLowerCase() : undefined;
}

const XML = /xml/i;
const JSON_ACCEPTABLE = /json|\*\/\*|application\/\*|^\s*$/i;

/**
 * Only JSON is served. `_format` wins over Accept (3.1.0.1.10); asking for XML (or anything with no JSON
 * alternative) is 406. Whatever JSON flavour was asked for, the answer is application/fhir+json.
 */
export function assertJsonAcceptable(format: string | undefined, accept: string | undefined): void {
  if (format !== undefined) {
    if (XML.test(format) || !/json|^\s*$/i.test(format)) throw notAcceptable(`_format '${format}' is not supported; this server speaks JSON only`, ['_format']);
    return;
  }
  if (accept && !accept.split(',').some((part) => JSON_ACCEPTABLE.test(part.split(';')[0]))) {
    throw notAcceptable(`Accept '${accept}' has no JSON media type; this server speaks JSON only`);
  }
}
