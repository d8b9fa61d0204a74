// ValueSet expansion (FHIR R4 4.9.5 "Value Set Expansion"): evaluates compose.include/exclude with enumerated
// concepts, filters (is-a, descendent-of, is-not-a, generalizes, =, in, not-in, regex, exists) and valueSet imports;
// resolves implicit value sets (FHIR R4 4.8.8 `?fhir_vs`, LOINC `http://loinc.org/vs`, SNOMED `?fhir_vs=isa/X`).
import type { ValueSet, ValueSetComposeInclude, ValueSetComposeIncludeFilter } from '@medplum/fhirtypes';
import type { CodeSystemEntry, Concept } from './model.ts';
import type { TerminologyIndex } from './terminology-index.ts';
import { propertyText } from './code-systems.ts';
import { compileClientRegex } from '../safe-regex.ts';
import { NO_DEADLINE, type Deadline } from '../deadline.ts';

export interface ExpansionItem {
  system: string;
  code: string;
  display?: string;
  version?: string;
  concept?: Concept;
}

/** A failure to expand, reported by the operations as a 4xx OperationOutcome. */
export class ExpansionError extends Error {
  constructor(message: string, readonly kind: 'not-found' | 'not-supported' | 'too-costly' = 'not-found') {
    super(message);
  }
}

/** Implicit value set URLs: `[system]?fhir_vs`, `[system]?fhir_vs=isa/[code]`, `http://loinc.org/vs`. */
export function implicitValueSet(index: TerminologyIndex, url: string): ValueSet | undefined {
  const base = url.split('|')[0];
  let system: string;
  let filter: ValueSetComposeIncludeFilter | undefined;
  if (base === 'http://loinc.org/vs') system = 'http://loinc.org';
  else {
    const match = /^(.*)\?fhir_vs(?:=(.*))?$/.exec(base);
    if (!match) return undefined;
    system = match[1];
    if (match[2] !== undefined) {
      const isa = /^isa\/(.+)$/.exec(match[2]);
      if (!isa) return undefined;
      filter = { property: 'concept', op: 'is-a', value: decodeURIComponent(isa[1]) };
    }
  }
  const cs = index.codeSystem(system);
  if (!cs) return undefined;
  return {
    resourceType: 'ValueSet',
    url: base,
    name: `${cs.name ?? 'CodeSystem'}${filter ? `_isa_${filter.value}` : ''}_all`,
    title: filter ? `${cs.title ?? cs.name ?? system} codes below ${filter.value}` : `All codes of ${cs.title ?? cs.name ?? system}`,
    status: 'active',
    compose: { include: [{ system, ...(filter ? { filter: [filter] } : {}) }] },
  };
}

/** Resolves a canonical URL to a ValueSet: registered ones, then implicit ones. */
export function resolveValueSet(index: TerminologyIndex, url: string): ValueSet | undefined {
  return index.valueSet(url)?.resource ?? implicitValueSet(index, url);
}

export class Expander {
  private readonly cache = new Map<string, ExpansionItem[]>();

  constructor(private readonly index: TerminologyIndex) {}

  /** The full (unfiltered, unpaged) expansion of a value set, in compose order; cached by content. */
  /** `deadline`: the request's time budget, checked while filters run over a code system's concepts. */
  expand(valueSet: ValueSet, seen: string[] = [], deadline: Deadline = NO_DEADLINE): ExpansionItem[] {
    const key = valueSet.compose ? JSON.stringify(valueSet.compose) : `url:${valueSet.url ?? ''}|${valueSet.version ?? ''}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (valueSet.url && seen.includes(valueSet.url)) throw new ExpansionError(`ValueSet ${valueSet.url} imports itself`, 'not-supported');
    const path = valueSet.url ? [...seen, valueSet.url] : seen;
    let items: ExpansionItem[];
    if (valueSet.compose) items = this.compose(valueSet, path, deadline);
    else if (valueSet.expansion?.contains) items = flattenContains(valueSet.expansion.contains);
    else throw new ExpansionError(`ValueSet ${valueSet.url ?? valueSet.id ?? ''} has neither compose nor expansion`, 'not-supported');
    if (this.cache.size > 500) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, items);
    return items;
  }

  expandUrl(url: string, seen: string[] = [], deadline: Deadline = NO_DEADLINE): ExpansionItem[] {
    const vs = resolveValueSet(this.index, url);
    if (!vs) throw new ExpansionError(`ValueSet ${url} is not known to this server`);
    return this.expand(vs, seen, deadline);
  }

  private compose(valueSet: ValueSet, seen: string[], deadline: Deadline): ExpansionItem[] {
    const out = new Map<string, ExpansionItem>();
    for (const include of valueSet.compose?.include ?? []) {
      for (const item of this.includeItems(include, seen, deadline)) {
        const key = `${item.system}|${item.code}`;
        if (!out.has(key)) out.set(key, item);
      }
    }
    for (const exclude of valueSet.compose?.exclude ?? []) {
      for (const item of this.includeItems(exclude, seen, deadline)) out.delete(`${item.system}|${item.code}`);
    }
    const inactiveOk = valueSet.compose?.inactive !== false;
    return [...out.values()].filter((item) => inactiveOk || !isInactive(item.concept));
  }

  /** The concepts one include (or exclude) clause selects: the system part intersected with every imported set. */
  private includeItems(include: ValueSetComposeInclude, seen: string[], deadline: Deadline): ExpansionItem[] {
    const imports = (include.valueSet ?? []).map((url) => new Set(this.expandUrl(url, seen, deadline).map((i) => `${i.system}|${i.code}`)));
    let items: ExpansionItem[];
    if (include.system) {
      items = this.systemItems(include, deadline);
    } else if (include.valueSet?.length) {
      items = this.expandUrl(include.valueSet[0], seen, deadline);
    } else {
      throw new ExpansionError('A compose include has neither system nor valueSet', 'not-supported');
    }
    if (imports.length === 0) return items;
    return items.filter((item) => imports.every((set) => set.has(`${item.system}|${item.code}`)));
  }

  private systemItems(include: ValueSetComposeInclude, deadline: Deadline): ExpansionItem[] {
    const system = include.system!;
    const cs = this.index.codeSystem(system);
    if (include.concept?.length) {
      // Enumerated codes are expandable even from a system we do not hold (the compose gives the displays).
      return include.concept.map((c) => {
        const concept = cs ? this.index.concept(system, c.code) : undefined;
        return { system, code: concept?.code ?? c.code!, display: c.display ?? concept?.display, version: include.version ?? cs?.version, concept };
      });
    }
    if (!cs) throw new ExpansionError(`CodeSystem ${system} is not known to this server`);
    if (cs.content === 'not-present' && cs.concepts.size === 0) {
      throw new ExpansionError(`CodeSystem ${system} has no concepts on this server`, 'not-supported');
    }
    let concepts: Iterable<Concept> = cs.concepts.values();
    for (const filter of include.filter ?? []) concepts = this.applyFilter(cs, [...concepts], filter, deadline);
    const version = include.version ?? cs.version;
    return [...concepts].map((concept) => ({ system, code: concept.code, display: concept.display, version, concept }));
  }

  private applyFilter(cs: CodeSystemEntry, concepts: Concept[], filter: ValueSetComposeIncludeFilter, deadline: Deadline): Concept[] {
    const { property, op, value } = filter;
    if (!property || !op || value === undefined) throw new ExpansionError('A compose filter needs property, op and value', 'not-supported');
    const hierarchical = property === 'concept' || property === 'code' || property === 'parent' && op !== '=';
    if (hierarchical && (op === 'is-a' || op === 'descendent-of' || op === 'is-not-a' || op === 'generalizes')) {
      const root = cs.concepts.get(value) ?? (cs.byLowerCode ? cs.concepts.get(cs.byLowerCode.get(value.toLowerCase()) ?? '') : undefined);
      const below = root ? this.index.descendants(cs.url, root.code) : new Set<string>();
      const above = root ? this.index.ancestors(cs.url, root.code) : new Set<string>();
      switch (op) {
        case 'is-a': return concepts.filter((c) => c.code === root?.code || below.has(c.code));
        case 'descendent-of': return concepts.filter((c) => below.has(c.code));
        case 'is-not-a': return concepts.filter((c) => c.code !== root?.code && !below.has(c.code));
        case 'generalizes': return concepts.filter((c) => c.code === root?.code || above.has(c.code));
      }
    }
    const valuesOf = (c: Concept): string[] => {
      if (property === 'concept' || property === 'code') return [c.code];
      if (property === 'display') return c.display ? [c.display] : [];
      if (property === 'parent') return c.parents;
      if (property === 'child') return c.children;
      return c.properties.filter((p) => p.code === property).map((p) => propertyText(p.value));
    };
    switch (op) {
      case '=': return concepts.filter((c) => valuesOf(c).includes(value));
      case 'in': {
        const set = new Set(value.split(',').map((v) => v.trim()));
        return concepts.filter((c) => valuesOf(c).some((v) => set.has(v)));
      }
      case 'not-in': {
        const set = new Set(value.split(',').map((v) => v.trim()));
        return concepts.filter((c) => !valuesOf(c).some((v) => set.has(v)));
      }
      case 'regex': {
        // A client's pattern: linear-time RE2 matching with length limits (resources/safe-regex.ts), whole value.
        const re = compileClientRegex(value, `ValueSet.compose.include.filter (${property} regex)`);
        return concepts.filter((c) => {
          deadline.check('$expand regex filter');
          return valuesOf(c).some((v) => re.matchesAll(v));
        });
      }
      case 'exists': {
        const want = value === 'true';
        return concepts.filter((c) => (valuesOf(c).length > 0) === want);
      }
    }
    throw new ExpansionError(`Filter op '${op}' on property '${property}' is not supported`, 'not-supported');
  }
}

function flattenContains(contains: NonNullable<ValueSet['expansion']>['contains']): ExpansionItem[] {
  const out: ExpansionItem[] = [];
  const walk = (list: typeof contains) => {
    for (const c of list ?? []) {
      if (c.system && c.code) out.push({ system: c.system, code: c.code, display: c.display, version: c.version });
      walk(c.contains);
    }
  };
  walk(contains);
  return out;
}

function isInactive(concept: Concept | undefined): boolean {
  return !!concept?.properties.some((p) =>
    (p.code === 'status' && ['retired', 'deprecated', 'inactive'].includes(propertyText(p.value))) || (p.code === 'inactive' && p.value.value === true));
}
