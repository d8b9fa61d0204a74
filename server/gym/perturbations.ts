// Robustness perturbations of a session (issue 21 item 5), asked for at POST /gym/sessions {perturbations} and
// recorded in the session's meta (its summary, and so the runner's episode record). Everything is drawn from the
// session's perturbation seed, so the same seed perturbs the same way on every run:
// - API faults: a share of the requests to the session's FHIR base answered 429 or 503 with Retry-After before they
//   run, and a fixed added latency; the server's own requests (a grader's reads) are never faulted;
// - instruction paraphrase: one of the task's written paraphrases (task.json `paraphrases`) instead of its instruction;
// - chart noise, added to the session's overlay at its start (before the watermark, so it is chart, not the episode's
//   changes) and shaped so the right answer cannot change: exact duplicates of the patient's oldest observation and
//   its encounters, unit-variant copies (a second reading in another unit, a second before the original, so no
//   "latest" changes), an entered-in-error copy of the latest result with a wrong value, distractor notes dated
//   weeks back, and search results without _sort in a shuffled order.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Bundle, BundleEntry, Observation, Resource } from '@medplum/fhirtypes';
import type { Repository } from '../../resources/storage/repository.ts';
import { FhirError, issue } from '../../resources/outcome.ts';
import { parseQueryString, splitTarget, type ServerContext } from '../fhir-request.ts';
import { route } from '../router.ts';
import { drawFraction, type NoiseKind, type Perturbations } from '../../contracts/perturbations.ts';

/** The paraphrase the seed picks (index into the task's list), or null for none. */
export function pickParaphrase(seed: number, count: number): number | null {
  return count === 0 ? null : Math.floor(drawFraction(seed, 'paraphrase') * count);
}

const NOTE_TEXTS = [
  'Patient called to reschedule a dental cleaning. No clinical questions. Appointment moved to next month.',
  'Portal message: patient asks for a copy of the vaccination record for a travel visa. Record sent.',
  'Parking validation issue at the front desk resolved; no clinical content.',
];

/** Which unit of a quantity a unit-variant copy takes, and how its value converts. */
const UNIT_VARIANTS: { code: string; from: string; to: string; factor: number }[] = [
  // Monovalent ions: 1 mmol/L is 1 mEq/L.
  ...['2823-3', '2951-2', '2075-0', '6298-4', '2947-0'].map((code) => ({ code, from: 'mmol/L', to: 'meq/L', factor: 1 })),
  { code: '29463-7', from: 'kg', to: '[lb_av]', factor: 2.20462 },
  { code: '8302-2', from: 'cm', to: '[in_i]', factor: 1 / 2.54 },
];

/**
 * Adds the chart noise for the patient to the session's overlay (one transaction through the FHIR router) and returns
 * the ids added per kind. The chart is read first; what is added depends only on it and the seed.
 */
export function applyChartNoise(repo: Repository, context: ServerContext, baseUrl: string, patient: string, perturbations: Perturbations): void {
  const noise = perturbations.noise;
  if (!noise) return;
  const read = (type: string, query: string): Resource[] => {
    const res = route({ method: 'GET', path: type, query: parseQueryString(query), headers: {}, baseUrl, repo, context });
    const bundle = (typeof res.body === 'string' ? JSON.parse(res.body) : res.body) as Bundle;
    return (bundle.entry ?? []).filter((e) => e.search?.mode !== 'include').map((e) => e.resource!).filter(Boolean);
  };
  const tag = (id: string) => createHash('sha256').update(`${perturbations.seed}:${patient}:${id}`).digest('hex').slice(0, 16);
  const entries: BundleEntry[] = [];
  const add = (kind: NoiseKind, resource: Resource, key: string) => {
    const id = `noise-${tag(key)}`;
    const copy = { ...structuredClone(resource), id } as Resource;
    delete copy.meta;
    entries.push({ resource: copy, request: { method: 'PUT', url: `${copy.resourceType}/${id}` } });
    (noise.added[kind] ??= []).push(`${copy.resourceType}/${id}`);
  };
  const observations = (read('Observation', `patient=${encodeURIComponent(patient)}&_count=1000`) as Observation[])
    .filter((o) => o.status !== 'entered-in-error' && whenOf(o) !== undefined)
    .sort((a, b) => Date.parse(whenOf(a)!) - Date.parse(whenOf(b)!) || (a.id! < b.id! ? -1 : 1));
  const kinds = new Set(noise.kinds);

  if (kinds.has('duplicates')) {
    // The oldest observation is the least likely to decide anything; an exact copy of a visit changes no finding.
    if (observations.length > 0) add('duplicates', observations[0], `dup:${observations[0].id}`);
    for (const encounter of read('Encounter', `patient=${encodeURIComponent(patient)}&_count=1000`).slice(0, 2)) add('duplicates', encounter, `dup:${encounter.id}`);
  }
  if (kinds.has('unit-variants')) {
    for (const o of observations) {
      const variant = UNIT_VARIANTS.find((u) => o.code?.coding?.some((c) => c.code === u.code) && o.valueQuantity?.code === u.from && typeof o.valueQuantity.value === 'number');
      if (!variant) continue;
      const value = Math.round(o.valueQuantity!.value! * variant.factor * 100) / 100;
      const earlier = new Date(Date.parse(whenOf(o)!) - 1000).toISOString();
      add('unit-variants', {
        ...o, ...(o.effectiveDateTime ? { effectiveDateTime: earlier } : { effectivePeriod: { start: earlier, end: earlier } }),
        valueQuantity: { ...o.valueQuantity, value, unit: variant.to, code: variant.to },
      } as Observation, `unit:${o.id}`);
      if ((noise.added['unit-variants']?.length ?? 0) >= 2) break;
    }
  }
  if (kinds.has('entered-in-error')) {
    // The latest quantitative result, recorded again a minute later with a doubled value and struck as entered in error.
    const latest = [...observations].reverse().find((o) => typeof o.valueQuantity?.value === 'number');
    if (latest) {
      const later = new Date(Math.min(Date.parse(whenOf(latest)!) + 60_000, repo.now.getTime() - 1000)).toISOString();
      add('entered-in-error', {
        ...latest, status: 'entered-in-error', effectiveDateTime: later, effectivePeriod: undefined, issued: later,
        valueQuantity: { ...latest.valueQuantity, value: latest.valueQuantity!.value! * 2 },
      } as Observation, `eie:${latest.id}`);
    }
  }
  if (kinds.has('distractor-notes')) {
    for (let i = 0; i < 2; i++) {
      const text = NOTE_TEXTS[Math.floor(drawFraction(perturbations.seed, `note:${i}`) * NOTE_TEXTS.length)];
      const date = new Date(repo.now.getTime() - (30 + i * 17) * 86_400_000).toISOString();
      add('distractor-notes', {
        resourceType: 'DocumentReference', status: 'current',
        type: { coding: [{ system: 'http://loinc.org', code: '34109-9', display: 'Note' }], text: 'Administrative note' },
        subject: { reference: `Patient/${patient}` }, date,
        content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }],
      } as Resource, `note:${i}`);
    }
  }
  if (entries.length === 0) return;
  route({
    method: 'POST', path: '', query: [], body: { resourceType: 'Bundle', type: 'transaction', entry: entries },
    contentType: 'application/fhir+json', headers: { prefer: 'return=minimal' }, baseUrl, repo, context,
  });
}

function whenOf(o: Observation): string | undefined {
  return o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.effectiveInstant ?? o.issued;
}

const SESSION_ROUTE = '/fhir/_session/:sessionId';

/** What the hooks need of the SessionManager (./sessions.ts, which imports this module). */
export interface PerturbedSessions {
  readonly internalKey: string;
  has(id: string): boolean;
  get(id: string): { meta: { perturbations?: Perturbations } } | undefined;
}

/**
 * The API faults, added latency and shuffled search results of perturbed sessions, as hooks on the session FHIR
 * routes. The n-th request of a session is faulted when the seed's draw for n falls under the rate, so a run is
 * reproducible request for request (the count lives in memory: a restarted server counts from 0 again).
 */
/** `internalHeader` marks the server's own requests (./task-service.ts), which are never perturbed. */
export function registerPerturbationHooks(app: FastifyInstance, sessions: PerturbedSessions, internalHeader: string): void {
  const counts = new Map<string, number>();
  const perturbed = (request: { routeOptions: { url?: string }; params: unknown; headers: Record<string, unknown> }) => {
    if (!request.routeOptions.url?.startsWith(SESSION_ROUTE) || request.headers[internalHeader] === sessions.internalKey) return undefined;
    const id = (request.params as { sessionId?: string }).sessionId;
    if (id === undefined || !sessions.has(id)) return undefined;
    const p = sessions.get(id)?.meta.perturbations;
    return p ? { id, p } : undefined;
  };
  app.addHook('preHandler', async (request, reply) => {
    const found = perturbed(request);
    if (!found) return;
    const { id, p } = found;
    if (p.latencyMs) {
      reply.header('x-ehr-gym-added-latency', String(p.latencyMs));
      await new Promise((resolve) => setTimeout(resolve, p.latencyMs));
    }
    if (!p.faults) return;
    const n = (counts.get(id) ?? 0) + 1;
    counts.set(id, n);
    if (counts.size > 10_000) for (const key of counts.keys()) if (!sessions.has(key)) counts.delete(key);
    if (drawFraction(p.seed, `fault:${n}`) >= p.faults.rate) return;
    const status = drawFraction(p.seed, `status:${n}`) < 0.5 ? 429 : 503;
    throw new FhirError(status, [issue('error', status === 429 ? 'throttled' : 'transient', `Injected fault (session perturbation): ${status === 429 ? 'too many requests' : 'service unavailable'}; retry after ${p.faults.retryAfter} s`)],
      { 'retry-after': String(p.faults.retryAfter) });
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || typeof payload !== 'string' || reply.statusCode !== 200) return payload;
    const found = perturbed(request);
    if (!found?.p.noise?.kinds.includes('shuffle')) return payload;
    const query = parseQueryString(splitTarget(request.url)[1] ?? '');
    if (query.some(([name]) => name === '_sort')) return payload;
    let bundle: Bundle;
    try {
      bundle = JSON.parse(payload) as Bundle;
    } catch {
      return payload;
    }
    if (bundle.resourceType !== 'Bundle' || bundle.type !== 'searchset' || !bundle.entry || bundle.entry.length < 2) return payload;
    // A seeded Fisher-Yates over the page's entries, keyed by the request, so the same search shuffles the same way.
    const entries = bundle.entry;
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(drawFraction(found.p.seed, `shuffle:${request.url}:${i}`) * (i + 1));
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
    return JSON.stringify(bundle);
  });
}
