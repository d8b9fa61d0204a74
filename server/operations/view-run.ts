// $run (alias $viewdefinition-run): SQL on FHIR v2 "ViewDefinition/$run" operation.
//   POST [base]/ViewDefinition/$run       Parameters: viewResource | viewReference, resource*, patient, group,
//                                          _since, _limit, _format (json | ndjson | csv)
//   GET  [base]/ViewDefinition/[id]/$run  the stored view, parameters in the query string
// Without inline `resource` parts the view runs over the sandbox's visible data (in a session: base plus its writes).
import { integerParameter } from '../../resources/integer-parameter.ts';
import type { Group, Parameters, ParametersParameter, Resource } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import type { Operation, OperationTarget } from './registry.ts';
import { badRequest, invalidParameter, notFound } from '../../resources/outcome.ts';
import { compileView, type CompiledView } from '../../resources/views/compile-view.ts';
import { runView } from '../../resources/views/run-view.ts';
import { CONTENT_TYPES, formatRows, parseRowFormat, type RowFormat } from '../../resources/views/row-format.ts';
import { localTarget, resourceReferences } from '../../resources/references.ts';
import { parseJsonKeepingDecimals } from '../../resources/views/precise-json.ts';
import type { Repository } from '../../resources/storage/repository.ts';

/** The operation's input as parameter parts, from a Parameters body (POST) or the query string (GET). */
export function operationParameters(req: FhirRequest): ParametersParameter[] {
  const parts: ParametersParameter[] = req.query.map(([name, value]) => ({ name, valueString: value }));
  const body = req.body as Parameters | undefined;
  if (req.method === 'POST' && body !== undefined && body !== null) {
    if (typeof body !== 'object' || body.resourceType !== 'Parameters') throw badRequest('The body must be a Parameters resource');
    parts.push(...(body.parameter ?? []));
  }
  return parts;
}

/** A part's primitive value, whichever value[x] carries it. */
export function primitive(part: ParametersParameter | undefined): string | number | boolean | undefined {
  if (!part) return undefined;
  for (const [key, value] of Object.entries(part)) {
    if (key.startsWith('value') && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) return value;
    if (key === 'valueReference' && value && typeof value === 'object') return (value as { reference?: string }).reference;
  }
  return undefined;
}

/** A ViewDefinition given inline or by reference (`ViewDefinition/id`, or a canonical url of a stored one). */
export function resolveView(req: FhirRequest, inline: unknown, reference: string | undefined, where: string): unknown {
  if (inline !== undefined) return inline;
  if (reference === undefined) throw badRequest(`${where}: give a ViewDefinition inline or by reference`);
  const target = localTarget(reference, req.baseUrl) ?? (/^[A-Za-z0-9\-.]{1,64}$/.test(reference) ? { type: 'ViewDefinition', id: reference } : undefined);
  if (target) {
    if (target.type !== 'ViewDefinition') throw invalidParameter(`${where}: '${reference}' is not a ViewDefinition`);
    const stored = req.repo.readLive('ViewDefinition', target.id);
    if (!stored) throw notFound(`${where}: ViewDefinition/${target.id} is not known`);
    return stored;
  }
  for (const candidate of req.repo.scan('ViewDefinition')) {
    if ((candidate as { url?: string }).url === reference) return candidate;
  }
  throw notFound(`${where}: no ViewDefinition with url '${reference}'`);
}

/** Resources in the compartments of these patients, approximated as: the patients, and resources that reference one. */
function inPatientCompartments(resource: Resource, patientIds: ReadonlySet<string>, baseUrl: string): boolean {
  if (resource.resourceType === 'Patient') return resource.id !== undefined && patientIds.has(resource.id);
  return resourceReferences(resource).some((site) => {
    const target = localTarget(site.reference, baseUrl);
    return target?.type === 'Patient' && patientIds.has(target.id);
  });
}

/** The patients a Group names (SQL on FHIR $run `group`): its Patient members, read in the request's sandbox. */
function groupPatients(req: FhirRequest, reference: string): Set<string> {
  const target = localTarget(reference, req.baseUrl) ?? (/^[A-Za-z0-9\-.]{1,64}$/.test(reference) ? { type: 'Group', id: reference } : undefined);
  if (target?.type !== 'Group') throw invalidParameter(`group '${reference}' is not a reference to a Group`, ['group']);
  const group = req.repo.readLive('Group', target.id) as Group | undefined;
  if (!group) throw notFound(`group: Group/${target.id} is not known`);
  const ids = new Set<string>();
  for (const member of group.member ?? []) {
    const patient = member.entity?.reference ? localTarget(member.entity.reference, req.baseUrl) : undefined;
    if (patient?.type === 'Patient' && member.inactive !== true) ids.add(patient.id);
  }
  return ids;
}

function* filtered(resources: Iterable<Resource>, keep: (r: Resource) => boolean): Generator<Resource> {
  for (const r of resources) if (keep(r)) yield r;
}

export interface ViewRunInput {
  view: CompiledView;
  resources: Iterable<Resource>;
  limit: number;
  format: RowFormat;
}

/** Parses and checks every parameter before any row is produced, so bad input is a 400 and never a half answer. */
export function viewRunInput(req: FhirRequest, target: OperationTarget): ViewRunInput {
  const parts = operationParameters(req);
  const one = (name: string) => parts.filter((p) => p.name === name).at(-1);

  let definition: unknown;
  if (target.id) {
    definition = resolveView(req, undefined, `ViewDefinition/${target.id}`, '$run');
  } else {
    const inline = one('viewResource')?.resource as unknown;
    const reference = primitive(one('viewReference'));
    if (inline === undefined && reference === undefined) throw badRequest('$run needs a viewResource or a viewReference parameter');
    definition = resolveView(req, inline, reference === undefined ? undefined : String(reference), '$run');
  }
  assertColumnCount(definition, req.context.settings.maxViewColumns);
  const view = compileView(definition);

  const format = parseRowFormat(primitive(one('_format'))?.toString());
  if (!format) throw invalidParameter(`_format '${String(primitive(one('_format')))}' is not one of json, ndjson, csv`, ['_format']);

  const limit = integerParameter('_limit', primitive(one('_limit')), { min: 1 }) ?? Infinity;

  // Inline resources re-read from the request text keep decimal precision (1.0 is not 1 for lowBoundary()).
  const raw = typeof req.body === 'object' && req.body !== null ? req.jsonText : undefined;
  const inlineParts = raw !== undefined ? operationParameters({ ...req, query: [], body: parseJsonKeepingDecimals(raw) }) : parts;
  const inline = inlineParts.filter((p) => p.name === 'resource');
  for (const part of inline) {
    if (!part.resource || typeof part.resource !== 'object') throw badRequest('Each resource parameter must carry a resource');
  }
  let resources: Iterable<Resource> = inline.length > 0 ? inline.map((p) => p.resource as Resource) : pagedScan(req.repo, view.resource);

  const since = primitive(one('_since'));
  if (since !== undefined) {
    const instant = Date.parse(String(since));
    if (Number.isNaN(instant)) throw invalidParameter(`_since '${String(since)}' is not an instant`, ['_since']);
    resources = filtered(resources, (r) => r.meta?.lastUpdated !== undefined && Date.parse(r.meta.lastUpdated) >= instant);
  }
  const patient = primitive(one('patient'));
  if (patient !== undefined) {
    const ref = String(patient);
    const patientId = localTarget(ref, req.baseUrl)?.id ?? ref;
    resources = filtered(resources, (r) => inPatientCompartments(r, new Set([patientId]), req.baseUrl));
  }
  const group = primitive(one('group'));
  if (group !== undefined) {
    const members = groupPatients(req, String(group));
    resources = filtered(resources, (r) => inPatientCompartments(r, members, req.baseUrl));
  }
  return { view, resources, limit, format };
}

/**
 * Counted on the raw definition, before it is compiled: compiling 200k column paths held the server for seconds.
 * Counts every `column` entry under `select`, nested `select` and `unionAll`, stopping once past the bound.
 */
function assertColumnCount(definition: unknown, max: number): void {
  let count = 0;
  const pending: unknown[] = [definition]; // a stack, not recursion: nesting depth is the client's choice too
  while (pending.length > 0 && count <= max) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    const { column, select, unionAll } = node as { column?: unknown; select?: unknown; unionAll?: unknown };
    if (Array.isArray(column)) count += column.length;
    for (const nested of [select, unionAll]) if (Array.isArray(nested)) pending.push(...nested);
  }
  if (count > max) throw invalidParameter(`The ViewDefinition declares more than ${max} columns (maxViewColumns)`, ['ViewDefinition.select']);
}

/** Resources per keyset page of a stored-data scan: one page is parsed and held at a time. */
export const SCAN_PAGE_SIZE = 500;
/** Output characters gathered before a chunk is written to the socket (also the size answered without streaming). */
export const STREAM_CHUNK_CHARS = 64 * 1024;

/**
 * Every visible resource of a type in this sandbox, page by page (Repository.scanPage). No SQLite cursor stays open
 * between pages, so the consumer may pause across event-loop turns while other requests write. Not a snapshot: a
 * resource written meanwhile with an id past the current page is seen, one before it is not.
 */
export function* pagedScan(repo: Repository, type: string, pageSize = SCAN_PAGE_SIZE): Generator<Resource> {
  let after: string | undefined;
  for (;;) {
    const page = repo.scanPage(type, after, pageSize);
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1].id;
  }
}

/**
 * The rows, serialized and streamed. The first chunk (up to STREAM_CHUNK_CHARS) is produced before answering, so
 * bad input that fails on the first rows is still a 4xx OperationOutcome and a small result is an ordinary body;
 * the rest is produced as the client reads it (Readable.from pulls the next chunk only when the socket drains), so
 * memory holds one page of resources and one chunk of text however many rows there are. An error after the first
 * chunk can no longer change the status: the response is aborted (the client sees a truncated body).
 */
export function viewRunResponse(input: ViewRunInput): FhirResponse {
  const headers = { 'content-type': CONTENT_TYPES[input.format] };
  const chunks = formatRows(runView(input.view, input.resources, input.limit), input.view.columns, input.format);
  const first = gather(chunks);
  if (first.done) return { status: 200, body: first.text, headers };
  return { status: 200, headers, stream: remainingChunks(first.text, chunks) };
}

/** Up to STREAM_CHUNK_CHARS of output; `done` when the generator has nothing more. */
function gather(chunks: Iterator<string>): { text: string; done: boolean } {
  const parts: string[] = [];
  let size = 0;
  while (size < STREAM_CHUNK_CHARS) {
    const next = chunks.next();
    if (next.done) return { text: parts.join(''), done: true };
    parts.push(next.value);
    size += next.value.length;
  }
  return { text: parts.join(''), done: false };
}

async function* remainingChunks(head: string, chunks: Generator<string>): AsyncGenerator<string> {
  try {
    yield head;
    for (;;) {
      const { text, done } = gather(chunks);
      if (text.length > 0) yield text;
      if (done) return;
    }
  } finally {
    chunks.return(undefined); // the client went away: stop the scan
  }
}

function makeRunOperation(name: string): Operation {
  return {
    name,
    levels: ['type', 'instance'],
    types: ['ViewDefinition'],
    readOnly: true,
    bundleEntry: false,
    documentation: 'SQL on FHIR v2: run a ViewDefinition over inline resources or this sandbox\'s data; rows as json, ndjson or csv',
    handler: (req, target) => viewRunResponse(viewRunInput(req, target)),
  };
}

export const viewRunOperation = makeRunOperation('run');
export const viewDefinitionRunOperation = makeRunOperation('viewdefinition-run');

/** The $run Parameters body for a run_view tool call: POST it to [base]/ViewDefinition/$run. */
export function runViewParameters(args: { view: unknown; patient?: string; limit?: number; format?: string }): Parameters {
  const parameter: ParametersParameter[] = [{ name: 'viewResource', resource: args.view as Resource }];
  if (args.patient) parameter.push({ name: 'patient', valueReference: { reference: args.patient } });
  if (args.limit !== undefined) parameter.push({ name: '_limit', valueInteger: args.limit });
  if (args.format) parameter.push({ name: '_format', valueCode: args.format });
  return { resourceType: 'Parameters', parameter };
}
