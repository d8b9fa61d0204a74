// batch and transaction: POST [base] with a Bundle (FHIR R4 3.1.0.11). Every entry becomes a child request sent
// through the same router as HTTP requests, so each entry behaves exactly like the interaction it names.
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { badRequest, tooLarge } from '../../resources/outcome.ts';
import { deadlineOf } from '../request-deadline.ts';
import { notSupportedInBundle } from './operation.ts';
import { assertValid, checkReferences } from './write-checks.ts';
import { singleMatch } from './conditional.ts';
import {
  asFhirError, childRequest, entryError, failureEntry, parseEntry, responseBundle, responseEntry, type ParsedEntry,
} from './transaction-entries.ts';
import {
  batchResolver, conditionalReferenceResolver, entryResource, entryType, rewriteEntryReferences, transactionResolver,
} from './transaction-references.ts';

/** Sends one request through the FHIR router; passed in (router.ts calls this module, so it cannot import it back). */
export type Route = (req: FhirRequest) => FhirResponse;

export function batchOrTransaction(req: FhirRequest, route: Route): FhirResponse {
  const bundle = bundleFromBody(req);
  // Started once the envelope is validated: the first validation in a process compiles the whole R4 schema
  // (seconds, once), which is not this request's work. Every entry shares this budget.
  deadlineOf(req);
  const entries = bundle.entry ?? [];
  const body = bundle.type === 'batch' ? batch(req, entries, route) : transaction(req, entries, route);
  return { status: 200, body };
}

/** The body must be a structurally valid Bundle of type batch or transaction. */
function bundleFromBody(req: FhirRequest): Bundle {
  const body = req.body;
  if (body === undefined || body === null || body === '') throw badRequest('POST to the base needs a batch or transaction Bundle');
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body is not a JSON object');
  const bundle = body as Bundle;
  if (bundle.resourceType !== 'Bundle') {
    throw badRequest(`POST to the base takes a Bundle of type batch or transaction, not ${String(bundle.resourceType ?? 'a body without resourceType')}`, ['resourceType']);
  }
  // Validate the envelope only: each entry's resource is validated by the interaction it is sent to, so that one
  // invalid resource fails its own entry (in a batch) and is named by entry index (in a transaction).
  const entries = bundle.entry as unknown;
  // Bounded before any per-entry work (validation included): a 50k-entry Bundle held the server for seconds.
  const maxEntries = req.context.settings.maxBatchEntries;
  if (Array.isArray(entries) && entries.length > maxEntries) {
    throw tooLarge(`The Bundle has ${entries.length} entries; a batch or transaction may hold at most ${maxEntries} (maxBatchEntries): split it`, ['Bundle.entry']);
  }
  const envelope = Array.isArray(entries)
    ? { ...bundle, entry: entries.map((e) => (e && typeof e === 'object' && !Array.isArray(e) ? { ...e, resource: undefined } : e)) }
    : bundle;
  assertValid(JSON.parse(JSON.stringify(envelope)) as Resource);
  if (bundle.type !== 'batch' && bundle.type !== 'transaction') {
    throw badRequest(`POST to the base takes a Bundle of type batch or transaction, not '${bundle.type}'`, ['Bundle.type']);
  }
  return bundle;
}

/** Batch: entries succeed or fail independently, each in its own SQLite transaction (3.1.0.11.2). */
function batch(req: FhirRequest, entries: BundleEntry[], route: Route): Bundle {
  const responses = entries.map((entry, index) => {
    try {
      // Past the budget every remaining entry fails as too-costly without running; the ones already done stay done
      // and say so, as each batch entry is its own transaction.
      req.deadline?.check(`batch entry ${index}`);
      const parsed = parseEntry(req, entry, index);
      return req.repo.transaction(() => {
        rewriteEntryReferences(parsed, batchResolver(conditionalReferenceResolver(req)));
        return responseEntry(req, parsed, immediateReply(route({ ...childRequest(req, parsed), bundleEntry: true, deadline: req.deadline })));
      });
    } catch (err) {
      return failureEntry(asFhirError(err));
    }
  });
  return responseBundle(req, 'batch-response', responses);
}

/** Processing order for a transaction (3.1.0.11.2): deletes, creates, updates and patches, then reads. */
const RANK: Record<ParsedEntry['method'], number> = { DELETE: 0, POST: 1, PUT: 2, PATCH: 2, GET: 3, HEAD: 3 };

/**
 * Transaction: all or nothing in one SQLite transaction. Any failing entry throws out of it (rolling everything
 * back) as that entry's error, labelled with its index.
 */
function transaction(req: FhirRequest, entries: BundleEntry[], route: Route): Bundle {
  const parsed = entries.map((entry, index) => {
    try {
      return parseEntry(req, entry, index);
    } catch (err) {
      throw entryError({ index, method: entry?.request?.method ?? 'GET', url: entry?.request?.url ?? '', path: '', query: [], headers: {} }, err);
    }
  });
  assertUniqueFullUrls(parsed);
  const ordered = [...parsed].sort((a, b) => RANK[a.method] - RANK[b.method] || a.index - b.index);

  return req.repo.transaction(() => {
    const responses: BundleEntry[] = new Array(parsed.length);
    const pending: { entry: ParsedEntry; resource: Resource }[] = [];
    const assignedIds = new Map<number, string>();
    const run = (entry: ParsedEntry) => {
      const state = { assignedId: assignedIds.get(entry.index), pendingReferenceChecks: [] as Resource[] };
      const reply = atEntry(entry, () => {
        req.deadline?.check(`transaction entry ${entry.index}`);
        return immediateReply(route({ ...childRequest(req, entry, state), bundleEntry: true, deadline: req.deadline }));
      });
      for (const resource of state.pendingReferenceChecks) pending.push({ entry, resource });
      responses[entry.index] = responseEntry(req, entry, reply);
    };

    const deletes = ordered.filter((e) => e.method === 'DELETE');
    // Overlaps visible from the urls alone fail before anything runs; conditional ones once they are resolved.
    directIdentities(ordered.filter((e) => e.method === 'PUT' || e.method === 'PATCH'), directIdentities(deletes));
    const claimed = directIdentities(deletes);
    for (const entry of deletes) run(entry);
    // After the deletes, so an ifNoneExist or conditional update sees the state they leave.
    const identities = assignIdentities(req, ordered, assignedIds, claimed);
    const resolve = transactionResolver(identities, conditionalReferenceResolver(req));
    for (const entry of ordered) atEntry(entry, () => rewriteEntryReferences(entry, resolve));
    for (const entry of ordered) if (entry.method !== 'DELETE') run(entry);
    // Entries may reference each other in any order, so references are checked once all are written.
    for (const { entry, resource } of pending) atEntry(entry, () => checkReferences(req, resource));
    return responseBundle(req, 'transaction-response', responses);
  });
}

/**
 * An entry's reply must be a resource available now: Bundle.entry.resource holds a resource, and the Bundle is
 * answered synchronously. Operations marked `bundleEntry: false` are refused before they run (operation.ts); this
 * catches any other reply that answers later, streams, or carries rows, as a 400 for the entry rather than an empty
 * or 500 one.
 */
function immediateReply(reply: FhirResponse): FhirResponse {
  const type = reply.headers?.['content-type'];
  const tabular = type !== undefined && !/^application\/fhir\+json\b/i.test(type);
  if (!reply.deferred && !reply.stream && !tabular) return reply;
  // Work already started finishes on its own; its outcome is not wanted (and must not be an unhandled rejection).
  reply.deferred?.catch(() => {});
  throw notSupportedInBundle('This operation');
}

function atEntry<T>(entry: ParsedEntry, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw entryError(entry, err);
  }
}

/** bdl-7: fullUrls are unique within a Bundle (so a reference names one entry). */
function assertUniqueFullUrls(entries: ParsedEntry[]): void {
  const seen = new Map<string, number>();
  for (const entry of entries) {
    if (!entry.fullUrl) continue;
    const first = seen.get(entry.fullUrl);
    if (first !== undefined) throw badRequest(`Bundle.entry[${first}] and Bundle.entry[${entry.index}] have the same fullUrl '${entry.fullUrl}'`);
    seen.set(entry.fullUrl, entry.index);
  }
}

/** `Type/id` of the entries whose url names one resource, keyed to the entry index; a second claim is a 400. */
function directIdentities(entries: ParsedEntry[], claimed = new Map<string, number>()): Map<string, number> {
  for (const entry of entries) {
    const segments = entry.path.split('/');
    if (segments.length !== 2) continue;
    const identity = `${decodeURIComponent(segments[0])}/${decodeURIComponent(segments[1])}`;
    assertUnclaimed(claimed, identity, entry);
    claimed.set(identity, entry.index);
  }
  return claimed;
}

/** 3.1.0.11.2: if any resource identities overlap in the DELETE, POST and PUT steps, the transaction fails. */
function assertUnclaimed(claimed: Map<string, number>, identity: string, entry: ParsedEntry): void {
  const other = claimed.get(identity);
  if (other !== undefined && other !== entry.index) {
    throw badRequest(`Bundle.entry[${other}] and Bundle.entry[${entry.index}] both change ${identity}; a transaction may touch a resource once`);
  }
}

/**
 * Decide before any write which resource each POST, PUT and PATCH entry will be (3.1.0.11.2): a server id for each
 * create (or the match of its ifNoneExist), the url's id for an update, the match of a conditional update. Returns
 * fullUrl -> `Type/id` for rewriting references. Two entries writing one resource fail the transaction.
 */
function assignIdentities(
  req: FhirRequest,
  ordered: ParsedEntry[],
  assignedIds: Map<number, string>,
  claimed: Map<string, number>,
): Map<string, string> {
  const identities = new Map<string, string>();
  for (const entry of ordered) {
    if (entry.method !== 'POST' && entry.method !== 'PUT' && entry.method !== 'PATCH') continue;
    const identity = atEntry(entry, () => identityOf(req, entry, assignedIds));
    if (!identity) continue;
    assertUnclaimed(claimed, identity, entry);
    claimed.set(identity, entry.index);
    if (entry.fullUrl) identities.set(entry.fullUrl, identity);
  }
  return identities;
}

function identityOf(req: FhirRequest, entry: ParsedEntry, assignedIds: Map<number, string>): string | undefined {
  const segments = entry.path.split('/');
  const type = entryType(entry);
  const child = childRequest(req, entry);
  if (entry.method === 'POST') {
    if (segments.length !== 1) return undefined; // not a create; the router rejects it
    const ifNoneExist = entry.headers['if-none-exist'];
    const id = (ifNoneExist ? singleMatch(child, type, ifNoneExist) : undefined) ?? req.repo.newId();
    assignedIds.set(entry.index, id);
    return `${type}/${id}`;
  }
  if (segments.length === 2) return `${type}/${decodeURIComponent(segments[1])}`;
  if (segments.length !== 1 || entry.query.length === 0) return undefined;
  // Conditional update or patch: the resource it matches now; an update that matches nothing creates.
  const match = singleMatch(child, type, entry.query);
  if (match) return `${type}/${match}`;
  if (entry.method !== 'PUT') return undefined;
  const id = entryResource(entry)?.id ?? req.repo.newId();
  assignedIds.set(entry.index, id);
  return `${type}/${id}`;
}
