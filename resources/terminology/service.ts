// The terminology service the operations call: $lookup, $expand, $validate-code, $subsumes and $translate over one
// TerminologyIndex, as plain results (the HTTP layer turns them into Parameters / ValueSet). Failures are FhirErrors
// with 4xx statuses: no terminology input produces a 5xx.
import { integerParameter } from '../integer-parameter.ts';
import type { Coding, ConceptMap, ValueSet, ValueSetExpansionContains } from '@medplum/fhirtypes';
import { badRequest, FhirError, invalidParameter, issue, notFound } from '../outcome.ts';
import type { CodeSystemEntry, Concept, Designation, PropertyValue } from './model.ts';
import type { TerminologyIndex } from './terminology-index.ts';
import { Expander, ExpansionError, type ExpansionItem, resolveValueSet } from './expand.ts';
import { conceptMatches, matchScore, textQuery } from './text-match.ts';
import type { Deadline } from '../deadline.ts';

export interface LookupResult {
  name: string;
  version?: string;
  display?: string;
  definition?: string;
  designations: Designation[];
  properties: { code: string; value: PropertyValue; description?: string }[];
}

export interface ExpandOptions {
  filter?: string;
  count?: number;
  offset?: number;
  includeDesignations?: boolean;
  activeOnly?: boolean;
  /** The request's time budget, checked while the expansion is computed and filtered. */
  deadline?: Deadline;
}

export interface ValidateResult {
  result: boolean;
  message?: string;
  display?: string;
}

export type SubsumptionOutcome = 'equivalent' | 'subsumes' | 'subsumed-by' | 'not-subsumed';

export interface TranslateMatch {
  equivalence: string;
  concept: Coding;
  source: string;
  comment?: string;
}

export interface TranslateRequest {
  system?: string;
  code?: string;
  /** ConceptMap url; otherwise every map from `system` (to `targetSystem` when given) is used. */
  url?: string;
  conceptMap?: ConceptMap;
  source?: string;
  target?: string;
  targetSystem?: string;
  reverse?: boolean;
}

/** Expansions larger than this must be paged (count) or narrowed (filter): FHIR's `too-costly`. */
export const MAX_EXPANSION = 10000;

export class TerminologyService {
  private built?: { index: TerminologyIndex; expander: Expander };
  private source?: () => TerminologyIndex;

  /**
   * Over an index, or over a function that builds one on first use: the full index costs seconds, and a server that
   * never needs terminology (most searches do not) should not pay for it.
   */
  constructor(index: TerminologyIndex | (() => TerminologyIndex)) {
    if (typeof index === 'function') this.source = index;
    else this.built = { index, expander: new Expander(index) };
  }

  /** Whether the index exists yet (a lazily built service builds it on the first call that needs it). */
  get isBuilt(): boolean {
    return this.built !== undefined;
  }

  get index(): TerminologyIndex {
    return this.materialized().index;
  }

  get expander(): Expander {
    return this.materialized().expander;
  }

  private materialized(): { index: TerminologyIndex; expander: Expander } {
    if (!this.built) {
      const index = this.source!();
      this.built = { index, expander: new Expander(index) };
      this.source = undefined;
    }
    return this.built;
  }

  /** The code system for `system`, or a 404 naming it. */
  requireCodeSystem(system: string | undefined): CodeSystemEntry {
    if (!system) throw badRequest('The code system (parameter `system`) is required');
    const cs = this.index.codeSystem(system);
    if (!cs) throw notFound(`CodeSystem ${system} is not known to this server`);
    return cs;
  }

  requireConcept(system: string | undefined, code: string | undefined): { cs: CodeSystemEntry; concept: Concept } {
    const cs = this.requireCodeSystem(system);
    if (!code) throw badRequest('The code (parameter `code`) is required');
    // By `system` as given, so a `url|version` canonical reaches that version's concepts (layered-index.ts).
    const concept = this.index.concept(system, code);
    if (!concept) {
      const partial = cs.content === 'fragment' ? ' (this server holds a fragment of it)' : '';
      throw notFound(`Code '${code}' is not in CodeSystem ${cs.url}${partial}`);
    }
    return { cs, concept };
  }

  /** CodeSystem/$lookup (FHIR R4 4.7.16.1); `properties` limits which properties are returned. */
  lookup(system: string | undefined, code: string | undefined, properties?: string[]): LookupResult {
    const { cs, concept } = this.requireConcept(system, code);
    const wanted = (name: string) => !properties?.length || properties.includes(name);
    const definitionOf = (name: string) => cs.properties.find((p) => p.code === name)?.description;
    const out: LookupResult = {
      name: cs.title ?? cs.name ?? cs.url,
      version: cs.version,
      display: concept.display,
      definition: concept.definition,
      designations: wanted('designation') ? concept.designations : [],
      properties: [],
    };
    for (const p of concept.properties) if (wanted(p.code)) out.properties.push({ ...p, description: definitionOf(p.code) });
    if (wanted('parent')) for (const parent of concept.parents) out.properties.push({ code: 'parent', value: { type: 'code', value: parent }, description: this.index.concept(cs.url, parent)?.display });
    if (wanted('child')) for (const child of concept.children) out.properties.push({ code: 'child', value: { type: 'code', value: child }, description: this.index.concept(cs.url, child)?.display });
    return out;
  }

  /** A ValueSet by canonical URL (registered or implicit), or a 404. */
  requireValueSet(url: string): ValueSet {
    const vs = resolveValueSet(this.index, url);
    if (!vs) throw notFound(`ValueSet ${url} is not known to this server`);
    return vs;
  }

  /** Every code of a value set, unfiltered; expansion failures become 4xx OperationOutcomes. */
  expansionItems(valueSet: ValueSet, deadline?: Deadline): ExpansionItem[] {
    try {
      return this.expander.expand(valueSet, [], deadline);
    } catch (err) {
      if (!(err instanceof ExpansionError)) throw err;
      const code = err.kind === 'too-costly' ? 'too-costly' : err.kind === 'not-found' ? 'not-found' : 'not-supported';
      throw new FhirError(422, [issue('error', code, `Cannot expand ValueSet ${valueSet.url ?? valueSet.id ?? ''}: ${err.message}`)]);
    }
  }

  /** ValueSet/$expand (FHIR R4 4.9.18.1): filter is a word-prefix search over displays and synonyms, best first. */
  expand(valueSet: ValueSet, options: ExpandOptions = {}): ValueSet {
    let items = this.expansionItems(valueSet, options.deadline);
    if (options.activeOnly) items = items.filter((i) => !i.concept?.properties.some((p) => p.code === 'status' && p.value.value === 'retired'));
    if (options.filter && options.filter.trim().length > 0) {
      const query = textQuery(options.filter);
      const scored: { item: ExpansionItem; score: number }[] = [];
      for (const item of items) {
        options.deadline?.check('$expand text filter');
        const concept = item.concept ?? displayOnlyConcept(item);
        if (conceptMatches(concept, query)) scored.push({ item, score: matchScore(concept, query, concept.rank) });
      }
      scored.sort((a, b) => a.score - b.score);
      items = scored.map((s) => s.item);
    }
    const offset = options.offset ?? 0;
    if (options.count === undefined && offset === 0 && items.length > MAX_EXPANSION) {
      throw new FhirError(422, [issue('error', 'too-costly',
        `The expansion of ${valueSet.url ?? 'the ValueSet'} has ${items.length} codes; use count/offset or a filter`)]);
    }
    const page = items.slice(offset, options.count === undefined ? undefined : offset + options.count);
    const parameter: NonNullable<ValueSet['expansion']>['parameter'] = [];
    if (options.filter !== undefined) parameter.push({ name: 'filter', valueString: options.filter });
    if (options.count !== undefined) parameter.push({ name: 'count', valueInteger: options.count });
    if (offset) parameter.push({ name: 'offset', valueInteger: offset });
    if (options.includeDesignations) parameter.push({ name: 'includeDesignations', valueBoolean: true });
    const { text: _text, compose: _compose, expansion: _expansion, ...header } = valueSet;
    return {
      ...header,
      resourceType: 'ValueSet',
      status: valueSet.status ?? 'active',
      expansion: {
        identifier: `urn:uuid:${crypto.randomUUID()}`,
        timestamp: new Date().toISOString(),
        total: items.length,
        offset,
        ...(parameter.length ? { parameter } : {}),
        contains: page.map((item) => containsEntry(item, options.includeDesignations === true)),
      },
    };
  }

  /** ValueSet/$validate-code (FHIR R4 4.9.18.2): membership, and the display when one is given. */
  validateInValueSet(valueSet: ValueSet, system: string | undefined, code: string, display?: string): ValidateResult {
    const items = this.expansionItems(valueSet);
    const found = items.find((i) => i.code === code && (!system || i.system === system))
      ?? items.find((i) => i.code.toLowerCase() === code.toLowerCase() && (!system || i.system === system) && !this.index.codeSystem(i.system)?.caseSensitive);
    const name = valueSet.url ?? valueSet.id ?? 'the ValueSet';
    if (!found) {
      const why = system && !this.index.codeSystem(system) ? ` (CodeSystem ${system} is not known to this server)` : '';
      return { result: false, message: `The code '${system ? `${system}|` : ''}${code}' is not in ${name}${why}` };
    }
    return checkDisplay(found.code, found.display ?? found.concept?.display, found.concept, display);
  }

  /** CodeSystem/$validate-code (FHIR R4 4.7.16.3). */
  validateInCodeSystem(system: string, code: string, display?: string): ValidateResult {
    const cs = this.requireCodeSystem(system);
    const concept = this.index.concept(cs.url, code);
    if (!concept) return { result: false, message: `Code '${code}' is not in CodeSystem ${cs.url}${cs.content === 'fragment' ? ' (this server holds a fragment of it)' : ''}` };
    return checkDisplay(concept.code, concept.display, concept, display);
  }

  /** CodeSystem/$subsumes (FHIR R4 4.7.16.2). */
  subsumes(system: string | undefined, codeA: string | undefined, codeB: string | undefined): SubsumptionOutcome {
    if (!codeA || !codeB) throw badRequest('$subsumes needs codeA and codeB (or codingA and codingB)');
    const { cs, concept: a } = this.requireConcept(system, codeA);
    const { concept: b } = this.requireConcept(system, codeB);
    if (a.code === b.code) return 'equivalent';
    const named = system ?? cs.url;
    if (this.index.descendants(named, a.code).has(b.code)) return 'subsumes';
    if (this.index.descendants(named, b.code).has(a.code)) return 'subsumed-by';
    return 'not-subsumed';
  }

  /** ConceptMap/$translate (FHIR R4 4.10.16.1): matches from every applicable map. */
  translate(request: TranslateRequest): { result: boolean; message?: string; matches: TranslateMatch[] } {
    const { system, code } = request;
    if (!code) throw badRequest('$translate needs a code (code + system, coding, or codeableConcept)');
    if (!system) throw badRequest('$translate needs the system of the code');
    let maps: ConceptMap[];
    if (request.conceptMap) maps = [request.conceptMap];
    else if (request.url) {
      const map = this.index.conceptMap(request.url)?.resource;
      if (!map) throw notFound(`ConceptMap ${request.url} is not known to this server`);
      maps = [map];
    } else {
      maps = [...this.index.conceptMaps.values()].map((m) => m.resource).filter((m) => {
        if (request.source && !request.reverse && sourceScope(m) !== request.source) return false;
        if (request.target && !request.reverse && targetScope(m) !== request.target) return false;
        return (m.group ?? []).some((g) => (request.reverse ? g.target : g.source) === system);
      });
    }
    const matches: TranslateMatch[] = [];
    for (const map of maps) {
      for (const group of map.group ?? []) {
        const from = request.reverse ? group.target : group.source;
        const to = request.reverse ? group.source : group.target;
        if (from !== system) continue;
        if (request.targetSystem && to !== request.targetSystem) continue;
        for (const element of group.element ?? []) {
          for (const target of element.target ?? []) {
            const [fromCode, toCode] = request.reverse ? [target.code, element.code] : [element.code, target.code];
            if (fromCode !== code || !toCode) continue;
            const equivalence = request.reverse ? reverseEquivalence(target.equivalence) : target.equivalence ?? 'equivalent';
            const display = to ? this.index.concept(to, toCode)?.display ?? (request.reverse ? element.display : target.display) : undefined;
            matches.push({
              equivalence,
              concept: { ...(to ? { system: to } : {}), code: toCode, ...(display ? { display } : {}) },
              source: map.url ?? `ConceptMap/${map.id}`,
              ...(target.comment ? { comment: target.comment } : {}),
            });
          }
        }
      }
    }
    const result = matches.some((m) => !['unmatched', 'disjoint'].includes(m.equivalence));
    return {
      result,
      ...(result ? {} : { message: maps.length === 0 ? `No ConceptMap translates from ${system}` : `No mapping for ${system}|${code}` }),
      matches,
    };
  }

  /** `:text` support: the code's display or a synonym contains every word of `text` as a word prefix. */
  textMatches(system: string, code: string, text: string): boolean {
    const concept = this.index.concept(system, code);
    return concept ? conceptMatches(concept, textQuery(text)) && textQuery(text).words.length > 0 : false;
  }

  /**
   * `:in` / `:not-in` support: the codes of a value set (registered or implicit, e.g. `http://loinc.org/vs`) as
   * `system|code`. An unknown or unexpandable value set is a 400.
   */
  valueSetCodes(url: string): Set<string> {
    const vs = this.index.valueSet(url)?.resource ?? undefined;
    try {
      const items = vs ? this.expander.expand(vs) : this.expander.expandUrl(url);
      return new Set(items.map((i) => `${i.system}|${i.code}`));
    } catch (err) {
      if (err instanceof ExpansionError) throw invalidParameter(`Cannot use ValueSet ${url}: ${err.message}`);
      throw err;
    }
  }

  /** `:below` support: codes subsumed by `code` in `system` (is-a), excluding `code` itself. Unknown system or code: empty. */
  descendantsOf(system: string, code: string): Set<string> {
    const concept = this.index.concept(system, code);
    return concept ? this.index.descendants(system.split('|')[0], concept.code) : new Set();
  }

  /** `:above` support: codes that subsume `code` in `system` (is-a), excluding `code` itself. Unknown system or code: empty. */
  ancestorsOf(system: string, code: string): Set<string> {
    const concept = this.index.concept(system, code);
    return concept ? this.index.ancestors(system.split('|')[0], concept.code) : new Set();
  }
}

function sourceScope(map: ConceptMap): string | undefined {
  return map.sourceUri ?? map.sourceCanonical;
}

function targetScope(map: ConceptMap): string | undefined {
  return map.targetUri ?? map.targetCanonical;
}

/** Reading a map backwards turns "the target is wider" into "the source is narrower". */
function reverseEquivalence(equivalence: string | undefined): string {
  switch (equivalence) {
    case 'wider': return 'narrower';
    case 'narrower': return 'wider';
    case 'subsumes': return 'specializes';
    case 'specializes': return 'subsumes';
    default: return equivalence ?? 'equivalent';
  }
}

function checkDisplay(code: string, expected: string | undefined, concept: Concept | undefined, given: string | undefined): ValidateResult {
  if (given === undefined || expected === undefined) return { result: true, ...(expected ? { display: expected } : {}) };
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  const accepted = [expected, ...(concept?.designations.map((d) => d.value) ?? [])].map(norm);
  if (accepted.includes(norm(given))) return { result: true, display: expected };
  return { result: false, display: expected, message: `The display '${given}' is not a display of code '${code}' (expected '${expected}')` };
}

function displayOnlyConcept(item: ExpansionItem): Concept {
  const concept: Concept = { code: item.code, display: item.display, designations: [], properties: [], parents: [], children: [] };
  concept.terms = item.display ? [item.display.toLowerCase()] : [];
  concept.words = item.display ? item.display.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean) : [];
  return concept;
}

function containsEntry(item: ExpansionItem, includeDesignations: boolean): ValueSetExpansionContains {
  const out: ValueSetExpansionContains = { system: item.system };
  if (item.version) out.version = item.version;
  out.code = item.code;
  if (item.display ?? item.concept?.display) out.display = item.display ?? item.concept?.display;
  if (includeDesignations && item.concept?.designations.length) {
    out.designation = item.concept.designations.map((d) => ({ ...(d.language ? { language: d.language } : {}), ...(d.use ? { use: d.use } : {}), value: d.value }));
  }
  return out;
}

/** The parameter is a number >= 0, or a 400. */
export function nonNegativeInteger(name: string, value: string | number | undefined): number | undefined {
  return integerParameter(name, value, { min: 0 });
}
