// Request body parsing and response format negotiation (FHIR R4 3.1.0.1.10 "Content Types and encodings").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, notAcceptable } from '../../resources/outcome.ts';
import { parseQueryString } from '../fhir-request.ts';

export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

const JSON_TYPES = ['application/fhir+json', 'application/json', 'application/json-patch+json'];

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * A JSON body's text as sent, kept beside the parsed value: operations that must keep decimal precision (`1.0`,
     * which JSON.parse turns into 1) re-read it (ViewDefinition $run's inline resources). server/fhir-request.ts.
     */
    jsonText?: string;
  }
}

/** Replace Fastify's parsers: JSON media types parse to values, form bodies to ordered parameter pairs. */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (nestingDepth(text) > MAX_JSON_DEPTH) {
      return done(badRequest(`The body nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    }
    try {
      const parsed: unknown = JSON.parse(text);
      request.jsonText = text;
      done(null, parsed);
    } catch (err) {
      done(badRequest(`The body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseQueryString(body as string));
  });
}

/**
 * Deepest real FHIR content (nested Questionnaire items, extensions of extensions) stays far below this; deeper
 * bodies would overflow the stack of the recursive validators and reference walkers, so they are refused up front.
 */
export const MAX_JSON_DEPTH = 128;

/** The greatest bracket nesting of a JSON text (string contents skipped). Linear and allocation-free. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) max = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
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
