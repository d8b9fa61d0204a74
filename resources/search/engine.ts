// The search engine: parse -> plan -> run -> Bundle (FHIR R4 3.1.1 "Search", 3.1.0.8.3 paging).
import type { Bundle, BundleEntry, BundleLink, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import type { Database, Statement } from 'better-sqlite3';
import type { Repository } from '../storage/repository.ts';
import { defaultSearchLimits, type SearchContext, type SearchLimits, type SearchQuery } from './service.ts';
import { FhirError, issue, outcome, tooCostly } from '../outcome.ts';
import { NO_DEADLINE, type Deadline } from '../deadline.ts';
import { pageLinks, pageWindow } from './paging.ts';
import { parseSearch, type Condition, type IncludeSpec, type SearchRequest } from './query.ts';
import { orderBy, visibleQuery, type Frag, type PlanContext } from './plan.ts';
import type { SearchParameterRegistry } from './registry.ts';
import { compartmentParams, patientCompartmentTypes } from './compartments.ts';
import { subset } from './subset.ts';
import { ParamKeys } from './param-keys.ts';
import { registerCodeSetFunctions } from './code-sets.ts';
import type { TerminologyService } from '../terminology/service.ts';

interface Row { sb: string; type: string; id: string; rid?: number }

/** What _include/_revinclude added, and the issues saying what a bound cut off. */
interface Included { resources: Resource[]; cut: OperationOutcomeIssue[] }

export class SearchEngine {
  private readonly statements = new WeakMap<Database, Map<string, Statement>>();

  constructor(readonly registry: SearchParameterRegistry, private readonly terminology: TerminologyService) {}

  private stmt(db: Database, sql: string): Statement {
    let map = this.statements.get(db);
    if (!map) this.statements.set(db, (map = new Map()));
    let s = map.get(sql);
    if (!s) {
      registerCodeSetFunctions(db);
      if (map.size > 5000) map.clear();
      s = db.prepare(sql);
      map.set(sql, s);
    }
    return s;
  }

  parse(type: string | undefined, query: SearchQuery): SearchRequest {
    return parseSearch(this.registry, type, query, compartmentParams);
  }

  private planContext(repo: Repository, baseUrl?: string): PlanContext {
    const keys = ParamKeys.of(repo.store.db);
    return { layers: repo.sandbox.layers, baseUrl, now: repo.now, keys: (type, code) => this.keysOf(keys, type, code), terminology: this.terminology };
  }

  /** See PlanContext.keys: `code` may carry a `:identifier` suffix. */
  private keysOf(keys: ParamKeys, type: string, code: string): { keys: number[]; targetType?: string } {
    const colon = code.indexOf(':');
    const base = colon >= 0 ? code.slice(0, colon) : code;
    const suffix = colon >= 0 ? code.slice(colon) : '';
    const alias = this.registry.get(type, base)?.alias;
    const codes = alias ? alias.codes : [base];
    return { keys: codes.map((c) => keys.find(type, c + suffix)), targetType: suffix ? undefined : alias?.targetType };
  }

  /** Keys of the reference parameters an include names ('*': every reference parameter of the type(s)). */
  private referenceKeys(db: Database, sourceType: string, param: string): number[] {
    const keys = ParamKeys.of(db);
    const types = sourceType === '*' ? this.registry.types() : [sourceType];
    return [...new Set(types.flatMap((t) => (param === '*' ? this.registry.forType(t).filter((p) => p.type === 'reference' && !p.alias).map((p) => p.code) : [param])
      .flatMap((c) => this.keysOf(keys, t, c).keys)))].filter((k) => k >= 0);
  }

  /** Every resource type with a row in one of the repository's layers (system search without _type). */
  private storedTypes(repo: Repository): string[] {
    const layers = repo.sandbox.layers;
    const rows = this.stmt(repo.store.db, `SELECT DISTINCT type FROM resource_current WHERE sandbox IN (${layers.map(() => '?').join(', ')})`).all(...layers) as { type: string }[];
    return rows.map((r) => r.type).sort();
  }

  private matchQuery(repo: Repository, request: SearchRequest, baseUrl?: string): Frag {
    const types = request.types ?? this.storedTypes(repo);
    const ctx = this.planContext(repo, baseUrl);
    const parts = types.map((t) => visibleQuery(ctx, t, request.conditions, request.sort));
    if (parts.length === 0) return { sql: 'SELECT NULL AS sb, NULL AS type, NULL AS id, NULL AS lu WHERE 0', params: [] };
    return { sql: parts.map((p) => p.sql).join(' UNION ALL '), params: parts.flatMap((p) => p.params) };
  }

  /** Ids matching a conditional interaction's criteria: strict, no paging. */
  match(repo: Repository, type: string, query: SearchQuery): string[] {
    const request = this.parse(type, query);
    if (request.ignored.length > 0) throw new FhirError(400, request.ignored.map((i) => ({ ...i, severity: 'error' as const })));
    const q = this.matchQuery(repo, { ...request, sort: [] });
    return (this.stmt(repo.store.db, `SELECT id FROM (${q.sql}) ORDER BY id`).all(...q.params) as { id: string }[]).map((r) => r.id);
  }

  search(ctx: SearchContext, type: string | undefined, query: SearchQuery): Bundle {
    const request = this.parse(type, query);
    if (request.ignored.length > 0 && ctx.strict) {
      throw new FhirError(400, request.ignored.map((i) => ({ ...i, severity: 'error' as const })));
    }
    const limits = ctx.limits ?? defaultSearchLimits;
    const deadline = ctx.deadline ?? NO_DEADLINE;
    const { count, offset } = pageWindow(query, limits.defaultPageSize, limits.maxPageSize);
    const db = ctx.repo.store.db;
    const q = this.matchQuery(ctx.repo, request, ctx.baseUrl);
    const onlyTotal = request.summary === 'count' || count === 0;
    let total: number | undefined;
    if (request.total !== 'none' || onlyTotal) {
      total = (this.stmt(db, `SELECT count(*) AS n FROM (${q.sql})`).get(...q.params) as { n: number }).n;
    }
    let rows: Row[] = [];
    if (!onlyTotal) {
      rows = this.stmt(db, `SELECT sb, type, id FROM (${q.sql}) ORDER BY ${orderBy(request.sort)} LIMIT ? OFFSET ?`)
        .all(...q.params, count, offset) as Row[];
    }
    const matches = rows.map((r) => {
      deadline.check('search result assembly');
      return this.load(ctx.repo, r);
    }).filter((r): r is Resource => !!r);
    const { resources: included, cut } = request.include.length > 0
      ? this.includes(ctx.repo, matches, request.include, limits, deadline)
      : { resources: [], cut: [] };

    const entry: BundleEntry[] = [];
    const shape = (r: Resource) => subset(r, request.summary, request.elements);
    for (const r of matches) entry.push({ fullUrl: `${ctx.baseUrl}/${r.resourceType}/${r.id}`, resource: shape(r), search: { mode: 'match' } });
    for (const r of included) entry.push({ fullUrl: `${ctx.baseUrl}/${r.resourceType}/${r.id}`, resource: shape(r), search: { mode: 'include' } });
    const notes = [...request.ignored, ...cut];
    if (notes.length > 0) entry.push({ resource: outcome(...notes), search: { mode: 'outcome' } });

    const linkQuery = query.filter(([n]) => n !== '_compartment');
    const links = pageLinks(linkUrl(ctx), linkQuery, count, offset, total, rows.length)
      // A count-only answer has no pages to move between.
      .filter((l) => !onlyTotal || l.relation === 'self');
    const bundle: Bundle = { resourceType: 'Bundle', type: 'searchset' };
    if (request.total !== 'none' || onlyTotal) bundle.total = total;
    bundle.link = links as BundleLink[];
    if (entry.length > 0) bundle.entry = entry;
    return bundle;
  }

  private load(repo: Repository, row: Row): Resource | undefined {
    const found = repo.store.currentIn(row.sb, row.type, row.id);
    return found?.json ? (JSON.parse(found.json) as Resource) : undefined;
  }

  /**
   * _include / _revinclude (FHIR R4 3.1.1.5.4), `:iterate` applied to included resources until nothing new, within
   * the bounds (`maxIncludeDepth` rounds, `maxIncludedResources` resources): what a bound cuts is reported, not hidden.
   */
  private includes(repo: Repository, matches: Resource[], specs: IncludeSpec[], limits: SearchLimits, deadline: Deadline): Included {
    const seen = new Set(matches.map((r) => `${r.resourceType}/${r.id}`));
    const out: Resource[] = [];
    const iterates = specs.some((s) => s.iterate);
    let frontier = matches;
    for (let depth = 1; frontier.length > 0; depth++) {
      const round = (spec: IncludeSpec) => (spec.reverse ? this.revIncluded(repo, frontier, spec, deadline) : this.included(repo, frontier, spec, deadline));
      if (depth > limits.maxIncludeDepth) {
        // Reported only when one more round would have added something (read up to its first new resource).
        const more = specs.some((spec) => spec.iterate && someNew(round(spec), seen));
        const cut = more ? [includeCut(`_include/_revinclude :iterate stopped after ${limits.maxIncludeDepth} rounds (maxIncludeDepth); resources further away are not included`)] : [];
        return { resources: out, cut };
      }
      const next: Resource[] = [];
      for (const spec of specs) {
        if (depth > 1 && !spec.iterate) continue;
        for (const r of round(spec)) {
          const key = `${r.resourceType}/${r.id}`;
          if (seen.has(key)) continue;
          if (out.length >= limits.maxIncludedResources) {
            return { resources: out, cut: [includeCut(`_include/_revinclude stopped at ${limits.maxIncludedResources} included resources (maxIncludedResources); more would have been included`)] };
          }
          seen.add(key);
          out.push(r);
          next.push(r);
        }
      }
      if (!iterates) break;
      frontier = next;
    }
    return { resources: out, cut: [] };
  }

  /** Generators, so that the caller's bounds stop the reading too (a `_revinclude=*` target may have thousands). */
  private *included(repo: Repository, sources: Resource[], spec: IncludeSpec, deadline: Deadline): Generator<Resource> {
    const db = repo.store.db;
    for (const source of sources) {
      deadline.check('_include');
      if (spec.sourceType !== '*' && source.resourceType !== spec.sourceType) continue;
      const holder = repo.current(source.resourceType, source.id!);
      if (!holder) continue;
      const rid = 'rid = (SELECT rowid FROM resource_current WHERE sandbox = ? AND type = ? AND id = ?)';
      const rows = (spec.param === '*'
        ? this.stmt(db, `SELECT target_type, target_id FROM search_reference WHERE ${rid} AND target_id IS NOT NULL`).all(holder.sandbox, source.resourceType, source.id)
        : this.stmt(db, `SELECT target_type, target_id FROM search_reference WHERE ${rid} AND param IN (${this.referenceKeys(db, source.resourceType, spec.param).join(', ') || '-1'}) AND target_id IS NOT NULL`).all(holder.sandbox, source.resourceType, source.id)) as { target_type: string; target_id: string }[];
      const aliasType = spec.param === '*' ? undefined : this.registry.get(source.resourceType, spec.param)?.alias?.targetType;
      for (const row of rows) {
        if (spec.targetType && row.target_type !== spec.targetType) continue;
        if (aliasType && row.target_type !== aliasType) continue;
        const target = repo.readLive(row.target_type, row.target_id);
        if (target) yield target;
      }
    }
  }

  private *revIncluded(repo: Repository, targets: Resource[], spec: IncludeSpec, deadline: Deadline): Generator<Resource> {
    const db = repo.store.db;
    const layers = repo.sandbox.layers;
    const keys = this.referenceKeys(db, spec.sourceType, spec.param);
    if (keys.length === 0) return;
    const sql = `SELECT r.sandbox AS sb, r.type AS type, r.id AS id FROM search_reference x JOIN resource_current r ON r.rowid = x.rid
      WHERE x.sandbox IN (${layers.map(() => '?').join(', ')}) AND x.param IN (${keys.map(() => '?').join(', ')}) AND x.target_id = ? AND x.target_type = ?`;
    for (const target of targets) {
      if (spec.targetType && target.resourceType !== spec.targetType) continue;
      const aliasType = spec.sourceType === '*' || spec.param === '*' ? undefined : this.registry.get(spec.sourceType, spec.param)?.alias?.targetType;
      if (aliasType && target.resourceType !== aliasType) continue;
      // iterate(), not all(): rows are read only as far as the caller consumes them.
      for (const row of this.stmt(db, sql).iterate(...layers, ...keys, target.id, target.resourceType) as IterableIterator<Row>) {
        deadline.check('_revinclude');
        // Only rows of the visible version count: a base row shadowed in this sandbox is stale.
        const visible = repo.current(row.type, row.id);
        if (!visible || visible.deleted || visible.sandbox !== row.sb || !visible.json) continue;
        yield JSON.parse(visible.json) as Resource;
      }
    }
  }

  /**
   * Patient/[id]/$everything and Patient/$everything (FHIR R4 Patient $everything): the patient(s), every resource
   * in their compartment, and the resources those reference (practitioners, organizations, medications...).
   * `_since` (lastUpdated), `_type`, `_count`/`_offset` paging.
   */
  everything(ctx: SearchContext, patientId: string | undefined, query: SearchQuery): Bundle {
    const repo = ctx.repo;
    const db = repo.store.db;
    const limits = ctx.limits ?? defaultSearchLimits;
    const deadline = ctx.deadline ?? NO_DEADLINE;
    const { count, offset } = pageWindow(query, limits.defaultPageSize, limits.maxPageSize);
    const since = query.find(([n]) => n === '_since')?.[1];
    const typeFilter = query.filter(([n]) => n === '_type').flatMap(([, v]) => v.split(',')).map((s) => s.trim()).filter(Boolean);
    const extra: Condition[] = [];
    if (since) extra.push({ kind: 'lastUpdated', values: [`ge${since}`], name: '_since' });
    const plan = this.planContext(repo, ctx.baseUrl);
    const keys: Row[] = [];
    const seen = new Set<string>();
    const add = (rows: Row[]) => {
      for (const r of rows) {
        const key = `${r.type}/${r.id}`;
        if (!seen.has(key)) { seen.add(key); keys.push(r); }
      }
    };
    const run = (type: string, conditions: Condition[]) => {
      const q = visibleQuery(plan, type, conditions);
      return this.stmt(db, `SELECT sb, type, id, rid FROM (${q.sql}) ORDER BY id`).all(...q.params) as Row[];
    };
    const patients = run('Patient', patientId ? [{ kind: 'id', values: [patientId], not: false }] : []);
    // Every patient's record at once is the whole population: bounded, the client is asked to name a patient.
    if (!patientId && patients.length > limits.maxEverythingPatients) {
      throw tooCostly(`Patient/$everything would gather the records of ${patients.length} patients (at most ${limits.maxEverythingPatients}, maxEverythingPatients); use Patient/[id]/$everything for one patient`);
    }
    add(patients);
    const members: Row[] = [];
    for (const type of patientCompartmentTypes()) {
      if (type === 'Patient') continue;
      deadline.check('$everything');
      const params = compartmentParams('Patient', type);
      const cond: Condition = patientId
        ? { kind: 'compartment', params, targetType: 'Patient', targetId: patientId }
        : { kind: 'compartment', params, targetType: 'Patient', targetId: '' };
      const rows = patientId ? run(type, [cond]) : this.anyPatientMembers(plan, db, type, params);
      members.push(...rows);
    }
    add(members);
    // One level of references out of the compartment (not to other patients).
    const referenced: Row[] = [];
    for (const r of [...patients, ...members]) {
      deadline.check('$everything');
      const refs = this.stmt(db, 'SELECT DISTINCT target_type, target_id FROM search_reference WHERE rid = ? AND target_id IS NOT NULL')
        .all(r.rid) as { target_type: string; target_id: string }[];
      for (const ref of refs) {
        if (ref.target_type === 'Patient' || seen.has(`${ref.target_type}/${ref.target_id}`)) continue;
        const visible = repo.current(ref.target_type, ref.target_id);
        if (visible && !visible.deleted) referenced.push({ sb: visible.sandbox, type: ref.target_type, id: ref.target_id });
      }
    }
    add(referenced.sort((a, b) => (a.type === b.type ? (a.id < b.id ? -1 : 1) : a.type < b.type ? -1 : 1)));
    let selected = keys;
    if (typeFilter.length > 0) selected = selected.filter((k) => typeFilter.includes(k.type));
    if (since) {
      const sinceIso = new Date(since.replace(/ (\d{2}:?\d{2})$/, '+$1')).toISOString();
      selected = selected.filter((k) => (repo.store.currentIn(k.sb, k.type, k.id)?.lastUpdated ?? '') >= sinceIso);
    }
    const page = selected.slice(offset, offset + count);
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      total: selected.length,
      link: pageLinks(linkUrl(ctx), query, count, offset, selected.length, page.length) as BundleLink[],
    };
    const entry = page.map((k) => {
      deadline.check('$everything');
      return this.load(repo, k);
    }).filter((r): r is Resource => !!r)
      .map((r) => ({ fullUrl: `${ctx.baseUrl}/${r.resourceType}/${r.id}`, resource: r, search: { mode: 'match' as const } }));
    if (entry.length > 0) bundle.entry = entry;
    return bundle;
  }

  private anyPatientMembers(plan: PlanContext, db: Database, type: string, params: string[]): Row[] {
    const keys = [...new Set(params.flatMap((p) => plan.keys(type, p).keys))];
    const branches = plan.layers.map((layer, i) => {
      const shadow = plan.layers.slice(0, i).map(() => ' AND NOT EXISTS (SELECT 1 FROM resource_current s WHERE s.sandbox = ? AND s.type = r.type AND s.id = r.id)').join('');
      return `SELECT r.sandbox AS sb, r.type AS type, r.id AS id, r.rowid AS rid FROM resource_current r WHERE r.sandbox = ? AND r.type = ? AND r.deleted = 0${shadow} AND r.rowid IN (SELECT rid FROM search_reference WHERE sandbox = ? AND param IN (${keys.map(() => '?').join(', ')}) AND target_type = 'Patient')`;
    });
    const values = plan.layers.flatMap((layer, i) => [layer, type, ...plan.layers.slice(0, i), layer, ...keys]);
    return this.stmt(db, `SELECT * FROM (${branches.join(' UNION ALL ')}) ORDER BY id`).all(...values) as Row[];
  }
}

function someNew(resources: Iterable<Resource>, seen: Set<string>): boolean {
  for (const r of resources) if (!seen.has(`${r.resourceType}/${r.id}`)) return true;
  return false;
}

function includeCut(diagnostics: string): OperationOutcomeIssue {
  return issue('warning', 'too-costly', diagnostics, ['_include', '_revinclude']);
}

/** Links are GETs on the search's own path: a POST `_search` pages through the equivalent GET. */
function linkUrl(ctx: SearchContext): string {
  const path = ctx.path.replace(/(^|\/)_search$/, '');
  return path ? `${ctx.baseUrl}/${path}` : ctx.baseUrl;
}

export type { OperationOutcomeIssue };
export { issue };
