// Why a checkpoint failed: a category per failed verdict, including code-lookup failures found in the audit log
// (a search by a code that returned nothing while the chart held the same concept under another code).
import type { Resource } from '@medplum/fhirtypes';
import { codeTables } from '../seed/codes/index.ts';
import type { FhirClient } from './fhir-client.ts';
import type { AuditEntry, EpisodeResult, Verdict } from './types.ts';

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

/** Searches that found nothing by `code` for one patient: candidates for a code-lookup failure. */
export function emptyCodeSearches(log: AuditEntry[]): { entry: AuditEntry; type: string; patient: string; tokens: string[] }[] {
  const out = [];
  for (const entry of log) {
    if (entry.method !== 'GET' || entry.status !== 200 || entry.resourceIds.length > 0 || !/^[A-Z][A-Za-z]+$/.test(entry.path)) continue;
    const tokens = entry.query.filter(([k]) => k === 'code' || k.startsWith('code:')).flatMap(([, v]) => v.split(','));
    const patientValue = entry.query.find(([k]) => k === 'patient' || k === 'subject')?.[1];
    if (tokens.length === 0 || !patientValue) continue;
    out.push({ entry, type: entry.path, patient: patientValue.replace(/^.*Patient\//, ''), tokens });
  }
  return out;
}

/** Code-lookup misses of an episode, checked against the final chart with the grader's client. */
export async function codeLookupMisses(log: AuditEntry[], fhir: FhirClient): Promise<string[]> {
  const misses: string[] = [];
  const charts = new Map<string, Resource[]>();
  for (const search of emptyCodeSearches(log)) {
    const words = [...new Set(search.tokens.flatMap(displaysOf).map(headWord).filter((w): w is string => !!w))];
    if (words.length === 0) continue;
    const key = `${search.type}/${search.patient}`;
    if (!charts.has(key)) charts.set(key, await fhir.search(search.type, { patient: search.patient, _count: 1000 }).catch(() => []));
    const holder = charts.get(key)!.find((r) => words.some((w) => conceptText(r).includes(w)));
    if (holder) misses.push(`#${search.entry.seq} ${search.type}?code=${search.tokens.join(',')} found nothing, but ${holder.resourceType}/${holder.id} holds "${words.join('/')}" under another code`);
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
  if (episode.codeLookupMisses.length > 0 && v.category !== 'documentation') return 'code_lookup';
  if (v.category === 'clinical_reasoning' && !answered(episode.answer)) return 'no_answer';
  if (v.category === 'data_retrieval') return 'missing_retrieval';
  return v.category === 'clinical_reasoning' ? 'wrong_answer' : 'wrong_action';
}
