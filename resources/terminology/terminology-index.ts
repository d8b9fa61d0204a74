// The terminology index: code systems (concepts, designations, properties, is-a hierarchy), value sets and concept
// maps, looked up by canonical URL. Built once from sources (see load.ts), then read-only apart from caches.
import type { ConceptMap, ValueSet } from '@medplum/fhirtypes';
import type { CodeSystemEntry, Concept, ConceptMapEntry, ValueSetEntry } from './model.ts';
import { prepareConceptText } from './text-match.ts';

export class TerminologyIndex {
  readonly codeSystems = new Map<string, CodeSystemEntry>();
  readonly valueSets = new Map<string, ValueSetEntry>();
  readonly conceptMaps = new Map<string, ConceptMapEntry>();
  private readonly descendantCache = new Map<string, Set<string>>();

  addCodeSystem(entry: CodeSystemEntry): void {
    this.codeSystems.set(entry.url, entry);
  }

  addValueSet(resource: ValueSet): void {
    if (resource.url && !this.valueSets.has(resource.url)) this.valueSets.set(resource.url, { url: resource.url, resource });
  }

  addConceptMap(resource: ConceptMap): void {
    if (resource.url && !this.conceptMaps.has(resource.url)) this.conceptMaps.set(resource.url, { url: resource.url, resource });
  }

  /** Completes the hierarchy in both directions and prepares the text-search words. Call once after loading. */
  finish(): this {
    for (const system of this.codeSystems.values()) {
      for (const concept of system.concepts.values()) {
        for (const parent of concept.parents) {
          const p = system.concepts.get(parent);
          if (p && !p.children.includes(concept.code)) p.children.push(concept.code);
        }
        for (const child of concept.children) {
          const c = system.concepts.get(child);
          if (c && !c.parents.includes(concept.code)) c.parents.push(concept.code);
        }
        prepareConceptText(concept);
      }
      if (!system.caseSensitive) {
        system.byLowerCode = new Map([...system.concepts.keys()].map((code) => [code.toLowerCase(), code]));
      }
    }
    return this;
  }

  /** The code system for a URL (a `|version` suffix is ignored: we hold one version of each). */
  codeSystem(url: string | undefined): CodeSystemEntry | undefined {
    if (!url) return undefined;
    return this.codeSystems.get(url) ?? this.codeSystems.get(url.split('|')[0]);
  }

  concept(system: string | undefined, code: string | undefined): Concept | undefined {
    const cs = this.codeSystem(system);
    if (!cs || code === undefined) return undefined;
    const found = cs.concepts.get(code);
    if (found || cs.caseSensitive) return found;
    const canonical = cs.byLowerCode?.get(code.toLowerCase());
    return canonical === undefined ? undefined : cs.concepts.get(canonical);
  }

  valueSet(url: string | undefined): ValueSetEntry | undefined {
    if (!url) return undefined;
    return this.valueSets.get(url) ?? this.valueSets.get(url.split('|')[0]);
  }

  conceptMap(url: string | undefined): ConceptMapEntry | undefined {
    if (!url) return undefined;
    return this.conceptMaps.get(url) ?? this.conceptMaps.get(url.split('|')[0]);
  }

  /** Codes below `code` in the is-a hierarchy, excluding `code` itself; cached per (system, code). */
  descendants(system: string, code: string): Set<string> {
    const key = `${system}|${code}`;
    let out = this.descendantCache.get(key);
    if (out) return out;
    out = new Set<string>();
    const cs = this.codeSystem(system);
    const stack = [...(cs?.concepts.get(code)?.children ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === code || out.has(next)) continue;
      out.add(next);
      stack.push(...(cs!.concepts.get(next)?.children ?? []));
    }
    this.descendantCache.set(key, out);
    return out;
  }

  /** Codes above `code` in the is-a hierarchy, excluding `code` itself. */
  ancestors(system: string, code: string): Set<string> {
    const out = new Set<string>();
    const cs = this.codeSystem(system);
    const stack = [...(cs?.concepts.get(code)?.parents ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === code || out.has(next)) continue;
      out.add(next);
      stack.push(...(cs!.concepts.get(next)?.parents ?? []));
    }
    return out;
  }
}
