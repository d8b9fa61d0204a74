// The words a note uses for clinical concepts, built from the terminology tables (displays, synonyms, LOINC
// components, flowsheet names, RxNorm ingredients, SNOMED/ICD-10 disorders) plus a small data file of abbreviations
// clinicians type. Finds concept mentions in text (longest match, word boundaries) and resolves a resource's codings
// to everything they stand for (RxNorm ingredients, LOINC targets of local codes, ICD-10 <-> SNOMED maps).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Coding } from '@medplum/fhirtypes';
import type { TerminologyIndex } from '../terminology/terminology-index.ts';
import type { TerminologyService } from '../terminology/service.ts';
import { sharedTerminology } from '../terminology/index.ts';

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export type ConceptKind = 'observation' | 'panel' | 'medication' | 'condition' | 'procedure' | 'specialty';

/** A concept as a note names it: every `system|code` that counts as the same thing (descendants and maps included). */
export interface ConceptRef {
  kind: ConceptKind;
  /** The preferred display of the concept. */
  display: string;
  codes: string[];
}

export interface Mention extends ConceptRef {
  start: number;
  end: number;
  text: string;
}

interface Term {
  key: string;
  caseSensitive: boolean;
  original: string;
  concept: ConceptRef;
}

interface TermsFile {
  terms: Record<string, string[]>;
  stop: string[];
  specialties: Record<string, string[]>;
  blocked?: string[];
  caseSensitive?: string[];
}

const BLOCKED: ConceptRef = { kind: 'procedure', display: '', codes: [] };

const here = dirname(fileURLToPath(import.meta.url));
const KIND_PRIORITY: ConceptKind[] = ['medication', 'condition', 'panel', 'observation', 'procedure', 'specialty'];
const WORD = /[\p{L}\p{N}]+(?:['’\-+][\p{L}\p{N}]+)*/gu;

export function words(text: string): { text: string; start: number; end: number }[] {
  return [...text.matchAll(WORD)].map((m) => ({ text: m[0], start: m.index!, end: m.index! + m[0].length }));
}

/** Terms of one or two characters ("K", "Na", "HR") and listed abbreviations ("BUN") must match exactly as written. */
function isCaseSensitive(term: string, listed: Set<string>): boolean {
  return term.replace(/[^\p{L}\p{N}]/gu, '').length <= 2 || listed.has(term);
}

export class Vocabulary {
  private readonly terms = new Map<string, Term[]>();
  private maxWords = 1;
  /** system|code -> codes it also stands for (ingredients, map targets). */
  private readonly related = new Map<string, Set<string>>();
  readonly concepts = new Map<string, ConceptRef>();
  private readonly caseSensitive: Set<string>;

  constructor(readonly index: TerminologyIndex, extra: TermsFile = readTermsFile()) {
    const stop = new Set(extra.stop.map((s) => s.toLowerCase()));
    this.caseSensitive = new Set(extra.caseSensitive ?? []);
    this.buildRelations();
    const add = (key: string, kind: ConceptKind, term: string) => {
      const concept = this.concepts.get(`${kind}:${key}`);
      if (!concept || !term || stop.has(term.toLowerCase())) return;
      this.addTerm(term, concept);
    };
    // LOINC: displays when short, synonyms, simple COMPONENTs.
    const loinc = index.codeSystem(LOINC);
    for (const c of loinc?.concepts.values() ?? []) {
      const classType = c.properties.find((p) => p.code === 'CLASSTYPE')?.value.value;
      if (classType === undefined) continue;
      const kind: ConceptKind = /panel/i.test(c.display ?? '') && classType === 1 ? 'panel' : 'observation';
      this.defineConcept(kind, `${LOINC}|${c.code}`, shortDisplay(c.display ?? c.code), this.relatedCodes(`${LOINC}|${c.code}`));
      const component = c.properties.find((p) => p.code === 'COMPONENT')?.value.value;
      const system = c.properties.find((p) => p.code === 'SYSTEM')?.value.value;
      // "Potassium" names the serum test, not the urine or whole-blood one.
      const mainSpecimen = system === undefined || /^(Ser\/Plas|Bld|Ser|Plas)$/.test(String(system)) && !/Bld/.test(String(system)) || kind === 'panel';
      const terms = [...c.designations.map((d) => d.value)];
      if (c.display && c.display.length <= 30 && !c.display.includes('[')) terms.push(c.display);
      if (typeof component === 'string' && /^[A-Za-z ]+$/.test(component) && mainSpecimen) terms.push(component);
      for (const t of terms) if (!/\s\S+-\S*Cnc|-ArVRat|Ser|Bld|PPP|Ur-|pnl|BldA|Rto/.test(t) || t.length <= 6) add(`${LOINC}|${c.code}`, kind, t);
    }
    // Flowsheet names: the same concept as the LOINC they map to.
    for (const c of index.codeSystem(FLOWSHEET)?.concepts.values() ?? []) {
      const key = `${FLOWSHEET}|${c.code}`;
      const target = [...(this.related.get(key) ?? [])].find((k) => k.startsWith(`${LOINC}|`));
      const concept = target ? this.concepts.get(`observation:${target}`) ?? this.concepts.get(`panel:${target}`) : undefined;
      if (concept && c.display) this.addTerm(c.display, concept);
    }
    // RxNorm ingredients: the ingredient and every product containing it.
    for (const c of index.codeSystem(RXNORM)?.concepts.values() ?? []) {
      const tty = c.properties.find((p) => p.code === 'TTY')?.value.value;
      if (tty !== 'IN') continue;
      const key = `${RXNORM}|${c.code}`;
      const products = c.properties.filter((p) => p.code === 'ingredient_of' && p.value.type === 'Coding').map((p) => `${RXNORM}|${(p.value.value as Coding).code}`);
      this.defineConcept('medication', key, c.display ?? c.code, [key, ...products]);
      add(key, 'medication', c.display ?? '');
      for (const d of c.designations) add(key, 'medication', d.value);
    }
    // Disorders and procedures (SNOMED CT), with descendants and ICD-10-CM codes that map to them.
    const snomed = index.codeSystem(SNOMED);
    const disorders = index.descendants(SNOMED, '64572001');
    const procedures = index.descendants(SNOMED, '363679005');
    for (const c of snomed?.concepts.values() ?? []) {
      const kind: ConceptKind | undefined = disorders.has(c.code) ? 'condition' : procedures.has(c.code) || /\(procedure\)/.test(c.display ?? '') ? 'procedure' : undefined;
      if (!kind) continue;
      const key = `${SNOMED}|${c.code}`;
      const below = [c.code, ...index.descendants(SNOMED, c.code)].map((code) => `${SNOMED}|${code}`);
      const codes = new Set(below);
      for (const b of below) for (const r of this.related.get(b) ?? []) codes.add(r);
      this.defineConcept(kind, key, stripSemanticTag(c.display ?? c.code), [...codes]);
      add(key, kind, stripSemanticTag(c.display ?? ''));
      for (const d of c.designations) add(key, kind, stripSemanticTag(d.value));
    }
    for (const c of index.codeSystem(ICD10CM)?.concepts.values() ?? []) {
      const key = `${ICD10CM}|${c.code}`;
      const below = [c.code, ...index.descendants(ICD10CM, c.code)].map((code) => `${ICD10CM}|${code}`);
      const codes = new Set(below);
      for (const b of below) for (const r of this.related.get(b) ?? []) codes.add(r);
      this.defineConcept('condition', key, c.display ?? c.code, [...codes]);
      if (c.display && c.display.length <= 40) add(key, 'condition', c.display.replace(/\s*\(.*?\)\s*/g, ' ').trim());
    }
    for (const [key, list] of Object.entries(extra.terms)) {
      const concept = KIND_PRIORITY.map((k) => this.concepts.get(`${k}:${key}`)).find((c) => c);
      if (concept) for (const t of list) this.addTerm(t, concept);
    }
    for (const phrase of extra.blocked ?? []) this.addTerm(phrase, BLOCKED);
    for (const [key, list] of Object.entries(extra.specialties)) {
      const display = index.concept(SNOMED, key.split('|')[1])?.display ?? list[0];
      this.defineConcept('specialty', key, list[0], [key]);
      for (const t of list) this.addTerm(t, this.concepts.get(`specialty:${key}`)!);
      void display;
    }
  }

  private defineConcept(kind: ConceptKind, key: string, display: string, codes: string[]): void {
    if (!this.concepts.has(`${kind}:${key}`)) this.concepts.set(`${kind}:${key}`, { kind, display, codes: [...new Set([key, ...codes])] });
  }

  /** A concept by kind and `system|code` (e.g. to state a key fact). */
  concept(kind: ConceptKind, key: string): ConceptRef | undefined {
    return this.concepts.get(`${kind}:${key}`);
  }

  private addTerm(term: string, concept: ConceptRef): void {
    const ws = words(term);
    if (ws.length === 0) return;
    const key = ws.map((w) => w.text.toLowerCase()).join(' ');
    const list = this.terms.get(key) ?? [];
    const caseSensitive = isCaseSensitive(term, this.caseSensitive);
    const original = ws.map((w) => w.text).join(' ');
    // Two concepts of the same kind under one word (e.g. "Weight" twice): keep them as one, codes united.
    const same = list.find((t) => t.concept.kind === concept.kind && t.caseSensitive === caseSensitive && (!caseSensitive || t.original === original));
    if (same) {
      if (same.concept !== concept && same.concept.display !== concept.display) {
        same.concept = { ...same.concept, codes: [...new Set([...same.concept.codes, ...concept.codes])] };
      }
      return;
    }
    list.push({ key, caseSensitive, original, concept });
    this.terms.set(key, list);
    this.maxWords = Math.max(this.maxWords, ws.length);
  }

  /** Concept mentions in text: at each word the longest term wins; mentions never overlap. */
  find(text: string): Mention[] {
    const ws = words(text);
    const out: Mention[] = [];
    for (let i = 0; i < ws.length; ) {
      let found: { n: number; term: Term } | undefined;
      for (let n = Math.min(this.maxWords, ws.length - i); n >= 1 && !found; n--) {
        const span = ws.slice(i, i + n);
        // Words of a term are separated by spaces or light punctuation only.
        if (n > 1 && span.some((w, k) => k > 0 && !/^[\s,\-/]{1,3}$/.test(text.slice(span[k - 1].end, w.start)))) continue;
        const candidates = this.terms.get(span.map((w) => w.text.toLowerCase()).join(' '));
        if (!candidates) continue;
        const original = span.map((w) => w.text).join(' ');
        const ok = candidates.filter((t) => !t.caseSensitive || t.original === original || t.original.toUpperCase() === original && original.length > 3);
        ok.sort((a, b) => KIND_PRIORITY.indexOf(a.concept.kind) - KIND_PRIORITY.indexOf(b.concept.kind));
        if (ok.length) found = { n, term: ok[0] };
      }
      if (!found) { i++; continue; }
      const start = ws[i].start;
      const end = ws[i + found.n - 1].end;
      if (found.term.concept !== BLOCKED) out.push({ ...found.term.concept, start, end, text: text.slice(start, end) });
      i += found.n;
    }
    return out;
  }

  /** Everything a coding stands for: itself, RxNorm ingredients, LOINC targets of local codes, mapped disorders. */
  expandCodings(codings: Coding[] | undefined): Set<string> {
    const out = new Set<string>();
    for (const c of codings ?? []) {
      if (!c.system || !c.code) continue;
      const key = `${c.system}|${c.code}`;
      out.add(key);
      for (const r of this.related.get(key) ?? []) out.add(r);
      if (c.system === SNOMED) for (const a of this.index.ancestors(SNOMED, c.code)) out.add(`${SNOMED}|${a}`);
    }
    return out;
  }

  /** The codes `system|code` stands for besides itself (ingredients, map targets). */
  relatedCodes(key: string): string[] {
    return [...(this.related.get(key) ?? [])];
  }

  private buildRelations(): void {
    const link = (a: string, b: string) => {
      const set = this.related.get(a) ?? new Set<string>();
      set.add(b);
      this.related.set(a, set);
    };
    for (const c of this.index.codeSystem(RXNORM)?.concepts.values() ?? []) {
      for (const p of c.properties) {
        if (p.code === 'has_ingredient' && p.value.type === 'Coding') link(`${RXNORM}|${c.code}`, `${RXNORM}|${p.value.value.code}`);
      }
    }
    for (const { resource } of this.index.conceptMaps.values()) {
      for (const group of resource.group ?? []) {
        if (!group.source || !group.target) continue;
        const pairs = [[FLOWSHEET, LOINC], [ICD10CM, SNOMED]];
        if (!pairs.some(([s, t]) => s === group.source && t === group.target)) continue;
        for (const el of group.element ?? []) {
          for (const t of el.target ?? []) {
            if (!el.code || !t.code || t.equivalence === 'unmatched' || t.equivalence === 'disjoint') continue;
            link(`${group.source}|${el.code}`, `${group.target}|${t.code}`);
            link(`${group.target}|${t.code}`, `${group.source}|${el.code}`);
          }
        }
      }
    }
  }
}

function stripSemanticTag(display: string): string {
  return display.replace(/\s*\((disorder|procedure|finding|regime\/therapy)\)\s*$/, '');
}

function shortDisplay(display: string): string {
  return display.replace(/\s*\[.*$/, '').trim() || display;
}

export function readTermsFile(): TermsFile {
  return JSON.parse(readFileSync(join(here, 'data', 'terms.json'), 'utf8')) as TermsFile;
}

/** Building the word tables takes a while: one vocabulary per terminology service (a server has one for its life). */
const vocabularies = new WeakMap<TerminologyService, Vocabulary>();

/** The vocabulary over `service`'s tables, built on first use. */
export function vocabularyOf(service: TerminologyService): Vocabulary {
  let vocab = vocabularies.get(service);
  if (!vocab) vocabularies.set(service, (vocab = new Vocabulary(service.index)));
  return vocab;
}

/**
 * For callers that have no server and so no ServerContext.terminology (graders reading notes, the validation
 * scripts, benchmarks): the vocabulary over the process's shared terminology service. The server passes its own.
 */
export function vocabulary(): Vocabulary {
  return vocabularyOf(sharedTerminology());
}
