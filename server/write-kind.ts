// The one definition of "a write" (issue 13/15): decided from the route shape and, for a named operation, its
// `readOnly` flag, before the interaction runs (an attempted write that fails is still a write). The audit log records
// it per request; graders and the harness read that flag instead of guessing from the HTTP method.
import type { OperationLevel, OperationTable } from './fhir-request.ts';

export function isWriteRequest(method: string, path: string, body: unknown, operations: OperationTable): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  const segments = path.split('/').filter((s) => s.length > 0);
  const last = segments[segments.length - 1] ?? '';
  if (method === 'POST' && last === '_search' && segments.length <= 2) return false;
  if (last.startsWith('$') && segments.length <= 3) {
    const level: OperationLevel = segments.length === 3 ? 'instance' : segments.length === 2 ? 'type' : 'system';
    const op = operations.find(last.slice(1), level, segments.length > 1 ? segments[0] : undefined);
    // An unknown operation changes nothing (it is a 404); a known one says whether it mutates.
    return op ? !op.readOnly : false;
  }
  if (method === 'POST' && segments.length === 0) return bundleWrites(body, operations);
  return true;
}

/** A batch or transaction writes when any of its entries would (a Bundle of reads is a read). */
function bundleWrites(body: unknown, operations: OperationTable): boolean {
  const entries = (body as { entry?: unknown } | undefined)?.entry;
  if (!Array.isArray(entries)) return true;
  return entries.some((entry) => {
    const request = (entry as { request?: { method?: unknown; url?: unknown } } | null)?.request;
    if (typeof request?.method !== 'string' || typeof request.url !== 'string') return true;
    const path = request.url.split('?', 1)[0]!.replace(/^https?:\/\/[^/]+/, '').replace(/^\/?fhir(\/_session\/[^/]+)?/, '');
    return request.method === 'POST' && path.replace(/^\/+/, '') === '' ? true : isWriteRequest(request.method, path, undefined, operations);
  });
}
