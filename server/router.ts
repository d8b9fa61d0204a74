// FHIR routing as a table from (method, path shape) to one interaction, independent of the HTTP framework.
// The HTTP layer and transaction/batch entries both dispatch through here (FHIR R4 3.1.0 "RESTful API" summary).
import type { FhirRequest, FhirResponse } from './fhir-request.ts';
import { read } from './interactions/read.ts';
import { vread } from './interactions/vread.ts';
import { create } from './interactions/create.ts';
import { conditionalUpdate, update } from './interactions/update.ts';
import { conditionalDelete, deleteResource } from './interactions/delete.ts';
import { conditionalPatch, patch } from './interactions/patch.ts';
import { history } from './interactions/history.ts';
import { compartmentSearch, search } from './interactions/search.ts';
import { capabilities } from './interactions/capabilities.ts';
import { batchOrTransaction } from './interactions/batch.ts';
import { operation } from './interactions/operation.ts';
import { badRequest, FhirError, methodNotAllowed, notFound } from '../resources/outcome.ts';

export function route(req: FhirRequest): FhirResponse {
  const segments = req.path.split('/').filter((s) => s.length > 0).map(decodeSegment);
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const [first, second, third, fourth] = segments;
  // RFC 7231 6.5.5: a 405 names the methods the path does support in an Allow header.
  const unsupported = (...allowed: string[]) => {
    const error = methodNotAllowed(`${req.method} is not supported on /${segments.join('/')}; use ${allowed.join(' or ')}`);
    const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
    return new FhirError(error.status, error.outcome, { allow: allow.join(', ') });
  };

  switch (segments.length) {
    case 0:
      if (method === 'GET') return search(req, undefined, '');
      if (method === 'POST') return batchOrTransaction(req, route);
      throw unsupported('GET', 'POST');
    case 1:
      if (first === 'metadata') {
        if (method === 'GET') return capabilities(req);
        throw unsupported('GET');
      }
      if (first === '_history') {
        if (method === 'GET') return history(req);
        throw unsupported('GET');
      }
      if (first === '_search' && method === 'POST') return search(req, undefined, '_search');
      if (first.startsWith('$')) return operation(req, first.slice(1), {});
      switch (method) {
        case 'GET': return search(req, first, first);
        case 'POST': return create(req, first);
        case 'PUT': return conditionalUpdate(req, first);
        case 'DELETE': return conditionalDelete(req, first);
        case 'PATCH': return conditionalPatch(req, first);
      }
      throw unsupported('GET', 'POST', 'PUT', 'DELETE', 'PATCH');
    case 2:
      if (second === '_search') {
        if (method === 'POST') return search(req, first, `${first}/_search`);
        throw unsupported('POST');
      }
      if (second === '_history') {
        if (method === 'GET') return history(req, first);
        throw unsupported('GET');
      }
      if (second.startsWith('$')) return operation(req, second.slice(1), { type: first });
      switch (method) {
        case 'GET': return read(req, first, second);
        case 'PUT': return update(req, first, second);
        case 'DELETE': return deleteResource(req, first, second);
        case 'PATCH': return patch(req, first, second);
      }
      throw unsupported('GET', 'PUT', 'DELETE', 'PATCH');
    case 3:
      if (third === '_history') {
        if (method === 'GET') return history(req, first, second);
        throw unsupported('GET');
      }
      if (third.startsWith('$')) return operation(req, third.slice(1), { type: first, id: second });
      if (method === 'GET') return compartmentSearch(req, first, second, third);
      throw unsupported('GET');
    case 4:
      if (third === '_history') {
        if (method === 'GET') return vread(req, first, second, fourth);
        throw unsupported('GET');
      }
  }
  throw notFound(`No FHIR interaction at /${segments.join('/')}`);
}

/** A path segment, %-decoded; a malformed escape is the client's error (transaction entry URLs reach here unchecked). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`'${segment}' is not a valid URL path segment`);
  }
}
