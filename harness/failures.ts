// Why a checkpoint failed: a category per failed verdict, including code-lookup failures found in the audit log
// (a search by a code that returned nothing while the chart held the same concept under another code), told apart
// by whether the agent had consulted the terminology first: `code_guessed` or `code_looked_up_but_missed`.
import type { Resource } from '@medplum/fhirtypes';
import { codeTables } from '../seed/codes/index.ts';
import type { FhirClient } from '../contracts/fhir-client.ts';
import type { AuditEntry } from '../contracts/gym-api.ts';
import type { CodeLookupKind, CodeLookupMiss, EpisodeResult } from './types.ts';
import type { Verdict } from '../contracts/task.ts';

function displaysOf(token: string): string[] {
  const bar = token.lastIndexOf('|');
  const system = bar >= 0 ? token.slice(0, bar) : undefined;
  const code = bar >= 0 ? token.slice(bar + 1) : token;
  const found = codeTables.filter((t) => (!system || t.system === system) && t.concepts[code] !== undefined).map((t) => t.concepts[code]);
  if (found.length === 0 && /^[a-z][a-z ]{3,}$/i.test(code)) found.push(code);
  return found;
}

const GENERIC = new Set(['total', 'serum', 'plasma', 'blood', 'mass', 'volume', 'moles', 'with', 'oral', 'tablet', 'in']);

/** The word that names a concept: its display's first significant word, lower-cased ("Potassium [Moles/volume]..." -> potassium). */
export function headWord(display: string): string | undefined {
  return display.toLowerCase().split(/[^a-z0-9]+/).find((w) => w.length >= 3 && !GENERIC.has(w) && !/^\d+$/.test(w));
}

function conceptText(resource: Resource): string {
  const loose = resource as unknown as Record<string, { coding?: { display?: string; code?: string }[]; text?: string } | undefined>;
  const concept = loose.code ?? loose.medicationCodeableConcept ?? loose.vaccineCode;
  return [concept?.text, ...(concept?.coding ?? []).flatMap((c) => [c.display, ...displaysOf(c.code ?? '')])].filter(Boolean).join(' ').toLowerCase();
}

/** Token modifiers that ask the terminology (text, value set, hierarchy) rather than name a code. */
const TERMINOLOGY_MODIFIERS = new Set(['text', 'in', 'not-in', 'below', 'above']);
const TERMINOLOGY_TYPES = /^(CodeSystem|ValueSet|ConceptMap)(\/|$)/;
const TERMINOLOGY_OPERATIONS = /(^|\/)\$(lookup|expand|validate-code|translate|subsumes)$/;
const TERMINOLOGY_TOOLS = new Set(['terminology_search', 'terminology_lookup']);

/**
 * A successful request that consulted the terminology: $lookup, $expand, $validate-code, $translate, $subsumes, a read
 * or search of CodeSystem/ValueSet/ConceptMap, the terminology tools, or a search with a terminology token modifier.
 * Failed calls (4xx) do not count: an agent whose lookups all failed learned no code from them.
 */
export function isTerminologyCall(entry: AuditEntry): boolean {
  if (entry.status >= 400) return false;
  if (entry.tool !== undefined && TERMINOLOGY_TOOLS.has(entry.tool)) return true;
  if (TERMINOLOGY_TYPES.test(entry.path) || TERMINOLOGY_OPERATIONS.test(entry.path)) return true;
  return entry.method === 'GET' && entry.query.some(([k]) => TERMINOLOGY_MODIFIERS.has(k.split(':')[1] ?? ''));
}

export interface EmptyCodeSearch {
  entry: AuditEntry;
  type: string;
  patient: string;
  tokens: string[];
  kind: CodeLookupKind;
  /** Seqs of the terminology calls before this search. */
  lookups: number[];
}

/**
 * Searches that found nothing by `code` (or `code:` with a non-terminology modifier) for one patient: candidates for a
 * code-lookup failure, each classified by the terminology calls that preceded it in the episode.
 */
export function emptyCodeSearches(log: AuditEntry[]): EmptyCodeSearch[] {
  const out: EmptyCodeSearch[] = [];
  const lookups: number[] = [];
  for (const entry of [...log].sort((a, b) => a.seq - b.seq)) {
    if (isTerminologyCall(entry)) {
      lookups.push(entry.seq);
      continue;
    }
    if (entry.method !== 'GET' || entry.status !== 200 || entry.resourceIds.length > 0 || !/^[A-Z][A-Za-z]+$/.test(entry.path)) continue;
    const tokens = entry.query.filter(([k]) => k === 'code' || k.startsWith('code:')).flatMap(([, v]) => v.split(','));
    const patientValue = entry.query.find(([k]) => k === 'patient' || k === 'subject')?.[1];
    if (tokens.length === 0 || !patientValue) continue;
    out.push({
      entry, type: entry.path, patient: patientValue.replace(/^.*Patient\//, ''), tokens,
      kind: lookups.length > 0 ? 'code_looked_up_but_missed' : 'code_guessed', lookups: [...lookups],
    });
  }
  return out;
}

/** Tokens naming a code that exists in no table of a system the EHR uses (`system|code` or a bare code). */
function unknownCodes(tokens: string[]): string[] {
  return tokens.filter((token) => {
    const bar = token.lastIndexOf('|');
    const system = bar >= 0 ? token.slice(0, bar) : undefined;
    const code = bar >= 0 ? token.slice(bar + 1) : token;
    if (!code || (system !== undefined && !codeTables.some((t) => t.system === system))) return false;
    return displaysOf(token).length === 0;
  });
}

/**
 * Code-lookup misses of an episode, checked against the final chart with the grader's client: an empty search by
 * code while the chart holds the concept under another code, or by a code no system the EHR uses has. Each is
 * `code_guessed` (no terminology call before it) or `code_looked_up_but_missed`.
 */
export async function codeLookupMisses(log: AuditEntry[], fhir: FhirClient): Promise<CodeLookupMiss[]> {
  const misses: CodeLookupMiss[] = [];
  const charts = new Map<string, Resource[]>();
  for (const search of emptyCodeSearches(log)) {
    const described = `${search.type}?code=${search.tokens.join(',')}`;
    const how = search.kind === 'code_guessed' ? 'with no terminology call before it' : `after ${search.lookups.length} terminology call(s)`;
    const base = { kind: search.kind, seq: search.entry.seq, search: described, lookups: search.lookups };
    const unknown = unknownCodes(search.tokens);
    if (unknown.length === search.tokens.length) {
      misses.push({ ...base, message: `#${search.entry.seq} ${described} (${how}): ${unknown.join(', ')} is a code of no system this EHR uses` });
      continue;
    }
    const words = [...new Set(search.tokens.flatMap(displaysOf).map(headWord).filter((w): w is string => !!w))];
    if (words.length === 0) continue;
    const key = `${search.type}/${search.patient}`;
    if (!charts.has(key)) charts.set(key, await fhir.search(search.type, { patient: search.patient, _count: 1000 }).catch(() => []));
    const holder = charts.get(key)!.find((r) => words.some((w) => conceptText(r).includes(w)));
    if (holder) {
      misses.push({
        ...base, holder: `${holder.resourceType}/${holder.id}`,
        message: `#${search.entry.seq} ${described} (${how}) found nothing, but ${holder.resourceType}/${holder.id} holds "${words.join('/')}" under another code`,
      });
    }
  }
  return misses;
}

function answered(answer: unknown): boolean {
  return answer !== undefined && answer !== null && !(typeof answer === 'string' && answer.trim() === '');
}

/** The failure category of a failed verdict in its episode. */
export function failureCategory(v: Verdict, episode: Pick<EpisodeResult, 'writes' | 'answer' | 'codeLookupMisses' | 'error' | 'toolCalls'>): string {
  if (v.failure) return v.failure;
  if (v.evidence.some((e) => e.startsWith('grader error'))) return 'grader_error';
  if (episode.error && episode.toolCalls === 0) return 'agent_error';
  if (v.category === 'safety') return 'safety_violation';
  if ((v.category === 'action_execution' || v.category === 'documentation') && episode.writes === 0) return 'no_action';
  const misses = episode.codeLookupMisses;
  if (misses.length > 0 && v.category !== 'documentation') return misses.some((m) => m.kind === 'code_guessed') ? 'code_guessed' : 'code_looked_up_but_missed';
  if (v.category === 'clinical_reasoning' && !answered(episode.answer)) return 'no_answer';
  if (v.category === 'data_retrieval') return 'missing_retrieval';
  return v.category === 'clinical_reasoning' ? 'wrong_answer' : 'wrong_action';
}
