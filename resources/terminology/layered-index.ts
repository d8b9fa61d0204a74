// A terminology index in which a sandbox's own CodeSystem, ValueSet and ConceptMap resources (written through the
// API) stand over the built-in index, so the terminology operations serve what the client stored (issue 14 item 5).
// The base layer's terminology resources are the built-in index written out (resources.ts), so only the sandbox's
// own writes need layering. Built per request from a handful of resources; the built-in index is never copied deeply.
import type { CodeSystem, ConceptMap, ValueSet } from '@medplum/fhirtypes';
import type { CodeSystemEntry, Concept } from './model.ts';
import { TerminologyIndex } from './terminology-index.ts';
import { codeSystemFromResource } from './code-systems.ts';

export interface StoredTerminology {
  codeSystems: CodeSystem[];
  valueSets: ValueSet[];
  conceptMaps: ConceptMap[];
}

type Canonical = { url?: string; version?: string; meta?: { lastUpdated?: string } };

// Content modes in which a client's CodeSystem holds part of a system at most: it must not hide a full built-in one.
const PARTIAL = new Set(['not-present', 'fragment', 'example']);

export class LayeredTerminologyIndex extends TerminologyIndex {
  /** Every stored version of each url, latest first (for `url|version` requests). */
  private readonly storedCodeSystems = new Map<string, CodeSystemEntry[]>();
  private readonly storedValueSets = new Map<string, ValueSet[]>();
  private readonly storedConceptMaps = new Map<string, ConceptMap[]>();
  /** Per url, the code system entry the map does not serve first (stored partial one, or the built-in one it shadows). */
  private readonly other = new Map<string, CodeSystemEntry>();
  private readonly local = new Set<CodeSystemEntry>();

  constructor(private readonly base: TerminologyIndex, stored: StoredTerminology) {
    super();
    for (const [url, cs] of base.codeSystems) this.codeSystems.set(url, cs);
    for (const [url, vs] of base.valueSets) this.valueSets.set(url, vs);
    for (const [url, cm] of base.conceptMaps) this.conceptMaps.set(url, cm);

    for (const [url, versions] of byUrlLatestFirst(stored.codeSystems)) {
      const entries = versions.map((resource) => {
        const entry = codeSystemFromResource(resource);
        // finish() completes the hierarchy (children of nested/parent-linked concepts) and the text-search words.
        const own = new TerminologyIndex();
        own.addCodeSystem(entry);
        own.finish();
        this.local.add(entry);
        return entry;
      });
      this.storedCodeSystems.set(url, entries);
      const builtIn = base.codeSystems.get(url);
      if (builtIn && PARTIAL.has(entries[0].content ?? '')) {
        this.other.set(url, entries[0]);
      } else {
        if (builtIn) this.other.set(url, builtIn);
        this.codeSystems.set(url, entries[0]);
      }
    }
    for (const [url, versions] of byUrlLatestFirst(stored.valueSets)) {
      this.storedValueSets.set(url, versions);
      this.valueSets.set(url, { url, resource: versions[0] });
    }
    for (const [url, versions] of byUrlLatestFirst(stored.conceptMaps)) {
      this.storedConceptMaps.set(url, versions);
      this.conceptMaps.set(url, { url, resource: versions[0] });
    }
  }

  override codeSystem(url: string | undefined): CodeSystemEntry | undefined {
    const versioned = url ? withVersion(url, this.storedCodeSystems, (e) => e.version) : undefined;
    return versioned ?? super.codeSystem(url);
  }

  /** A code missing from the entry served first is looked for in the other one (stored fragment vs built-in). */
  override concept(system: string | undefined, code: string | undefined): Concept | undefined {
    const found = super.concept(system, code);
    if (found || !system || code === undefined) return found;
    const other = this.other.get(system.split('|')[0]);
    if (!other) return undefined;
    return other.concepts.get(code) ?? (other.caseSensitive ? undefined : other.concepts.get(other.byLowerCode?.get(code.toLowerCase()) ?? ''));
  }

  override valueSet(url: string | undefined): ReturnType<TerminologyIndex['valueSet']> {
    const versioned = url ? withVersion(url, this.storedValueSets, (v) => v.version) : undefined;
    return versioned ? { url: versioned.url!, resource: versioned } : super.valueSet(url);
  }

  override conceptMap(url: string | undefined): ReturnType<TerminologyIndex['conceptMap']> {
    const versioned = url ? withVersion(url, this.storedConceptMaps, (m) => m.version) : undefined;
    return versioned ? { url: versioned.url!, resource: versioned } : super.conceptMap(url);
  }

  /** Stored systems walk their own hierarchy; built-in ones use the built-in index (and its cache). */
  override descendants(system: string, code: string): Set<string> {
    const cs = this.codeSystem(system);
    if (cs && this.local.has(cs) && cs.concepts.has(code)) return super.descendants(system, code);
    const other = this.other.get(system.split('|')[0]);
    if (other && this.local.has(other) && other.concepts.has(code)) return walk(other, code, 'children');
    return this.base.descendants(system.split('|')[0], code);
  }

  override ancestors(system: string, code: string): Set<string> {
    const cs = this.codeSystem(system);
    if (cs && this.local.has(cs) && cs.concepts.has(code)) return super.ancestors(system, code);
    const other = this.other.get(system.split('|')[0]);
    if (other && this.local.has(other) && other.concepts.has(code)) return walk(other, code, 'parents');
    return this.base.ancestors(system.split('|')[0], code);
  }
}

/** Resources with a url grouped by it, latest first: highest `version` (numeric-aware), then most recently updated. */
function byUrlLatestFirst<T extends Canonical>(resources: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of resources) {
    if (typeof r.url !== 'string' || !r.url) continue;
    const list = out.get(r.url) ?? [];
    list.push(r);
    out.set(r.url, list);
  }
  for (const list of out.values()) {
    list.sort((a, b) => (b.version ?? '').localeCompare(a.version ?? '', undefined, { numeric: true })
      || (b.meta?.lastUpdated ?? '').localeCompare(a.meta?.lastUpdated ?? ''));
  }
  return out;
}

/** The stored version a `url|version` canonical names, if any. */
function withVersion<T>(canonical: string, stored: Map<string, T[]>, versionOf: (t: T) => string | undefined): T | undefined {
  const bar = canonical.indexOf('|');
  if (bar < 0) return undefined;
  return stored.get(canonical.slice(0, bar))?.find((t) => versionOf(t) === canonical.slice(bar + 1));
}

function walk(cs: CodeSystemEntry, code: string, direction: 'children' | 'parents'): Set<string> {
  const out = new Set<string>();
  const stack = [...(cs.concepts.get(code)?.[direction] ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === code || out.has(next)) continue;
    out.add(next);
    stack.push(...(cs.concepts.get(next)?.[direction] ?? []));
  }
  return out;
}
