// Evidence ranking (pure): the chart items that bear on a clinical question or topic, scored by how relevant their
// concept is (topic group weight, or named in the question), whether they are abnormal, how recent they are, where
// they sit in their series (the latest potassium before older ones) and whether the series trends. Every score comes
// with its reasons, so an agent (and a reader of the benchmark) can see why an item ranked.
import type { Condition, MedicationRequest, Observation, Resource } from '@medplum/fhirtypes';
import { PatientChart, clinicalTime, codingsOf, conceptOf, isVoid, refOf, timeMillis } from './chart.ts';
import type { TopicCatalog, Topic } from './topics.ts';
import type { Vocabulary } from './vocabulary.ts';

export interface EvidenceQuery {
  question?: string;
  /** Topic names or ValueSet URLs. */
  topics?: string[];
  /** The instant recency is measured from (default: the newest item in the chart). */
  asOf?: string;
}

export interface EvidenceReason {
  groups: { url: string; name: string; title: string; weight: number }[];
  /** Concepts of the question that this item is about. */
  named: string[];
  abnormal?: string;
  status?: string;
  ageDays?: number;
  /** 0 = the latest of its series. */
  seriesRank?: number;
  seriesLength?: number;
  trend?: { direction: 'rising' | 'falling'; from: number; to: number; unit?: string; since: string; change: number };
  summary: string;
}

export interface RankedEvidence {
  resource: Resource;
  /** In [0, 1]. */
  score: number;
  reason: EvidenceReason;
}

export interface RankResult {
  items: RankedEvidence[];
  topics: Topic[];
  /** Concepts named in the question. */
  named: string[];
}

const DAY = 86_400_000;
const RANKED_TYPES = ['Observation', 'Condition', 'MedicationRequest', 'MedicationStatement', 'AllergyIntolerance', 'Procedure'];
/** The largest product of the multiplicative boosts (abnormal 1.5 x trend 1.2): scores are divided by it. */
const MAX_BOOST = 1.5 * 1.2;

export function rankEvidence(chart: PatientChart, query: EvidenceQuery, catalog: TopicCatalog, vocab: Vocabulary): RankResult {
  const topics: Topic[] = [];
  for (const t of query.topics ?? []) {
    const topic = catalog.topic(t);
    if (!topic) throw new UnknownTopicError(t, catalog.topics.map((x) => x.name));
    topics.push(topic);
  }
  if (query.question) for (const t of catalog.topicsForQuestion(query.question)) if (!topics.includes(t)) topics.push(t);
  const namedMentions = query.question ? vocab.find(query.question) : [];
  const named = [...new Set(namedMentions.map((m) => m.display))];

  const resources = RANKED_TYPES.flatMap((t) => chart.ofType(t as Resource['resourceType'])).filter((r) => !isVoid(r));
  const asOf = query.asOf ? Date.parse(query.asOf) : Math.max(0, ...resources.map(timeMillis));

  // Series of numeric observations by concept, newest first: rank within series and trend.
  const seriesKey = (o: Observation) => o.code?.coding?.find((c) => c.system === 'http://loinc.org')?.code ?? o.code?.coding?.[0]?.code ?? o.code?.text ?? '';
  const series = new Map<string, Observation[]>();
  for (const r of resources) {
    if (r.resourceType !== 'Observation') continue;
    const o = r as Observation;
    if (timeMillis(o) > asOf) continue;
    const list = series.get(seriesKey(o)) ?? [];
    list.push(o);
    series.set(seriesKey(o), list);
  }
  for (const list of series.values()) list.sort((a, b) => timeMillis(b) - timeMillis(a));

  // Problems and drug orders repeat too (a diagnosis re-recorded, a drug re-ordered): later copies rank lower.
  const repeats = new Map<string, Resource[]>();
  for (const r of resources) {
    if (r.resourceType === 'Observation') continue;
    const key = `${r.resourceType}:${conceptKey(r, vocab)}`;
    repeats.set(key, [...(repeats.get(key) ?? []), r]);
  }
  for (const list of repeats.values()) list.sort((a, b) => Number(isCurrent(b)) - Number(isCurrent(a)) || timeMillis(b) - timeMillis(a));

  const items: RankedEvidence[] = [];
  for (const r of resources) {
    if (timeMillis(r) > asOf + DAY) continue;
    const codes = itemCodes(r, vocab);
    const groups: EvidenceReason['groups'] = [];
    for (const topic of topics) {
      for (const { group, weight } of topic.groups) {
        if ([...codes].some((c) => group.codes.has(c)) && !groups.some((g) => g.url === group.url)) groups.push({ url: group.url, name: group.name, title: group.title, weight });
      }
    }
    const namedHere = [...new Set(namedMentions.filter((m) => m.codes.some((c) => codes.has(c))).map((m) => m.display))];
    if (!groups.length && !namedHere.length) continue;
    const relevance = Math.max(namedHere.length ? 1 : 0, ...groups.map((g) => g.weight));
    const reason: EvidenceReason = { groups: groups.sort((a, b) => b.weight - a.weight), named: namedHere, summary: '' };
    let factor = 1;
    const ageDays = Math.max(0, (asOf - timeMillis(r)) / DAY);
    if (r.resourceType === 'Observation') {
      const o = r as Observation;
      const list = series.get(seriesKey(o)) ?? [o];
      const rank = Math.max(0, list.indexOf(o));
      reason.seriesRank = rank;
      reason.seriesLength = list.length;
      reason.ageDays = Math.round(ageDays);
      factor *= 1 / (1 + rank);
      factor *= 0.5 + 0.5 * Math.exp(-ageDays / 365);
      const abnormal = abnormalFlag(o);
      if (abnormal) {
        reason.abnormal = abnormal;
        factor *= /^(HH|LL|AA)$/.test(abnormal) ? 1.5 : 1.25;
      }
      if (rank === 0) {
        const trend = trendOf(list, asOf);
        if (trend) {
          reason.trend = trend;
          factor *= 1.2;
        }
      }
    } else {
      const list = repeats.get(`${r.resourceType}:${conceptKey(r, vocab)}`) ?? [r];
      const rank = Math.max(0, list.indexOf(r));
      if (list.length > 1) {
        reason.seriesRank = rank;
        reason.seriesLength = list.length;
      }
      factor *= 1 / (1 + rank);
    }
    if (r.resourceType === 'Condition') {
      const status = (r as Condition).clinicalStatus?.coding?.[0]?.code ?? 'active';
      reason.status = status;
      factor *= ['active', 'recurrence', 'relapse'].includes(status) ? 1 : 0.6;
    } else if (r.resourceType === 'MedicationRequest' || r.resourceType === 'MedicationStatement') {
      const status = (r as MedicationRequest).status;
      reason.status = status;
      reason.ageDays = Math.round(ageDays);
      factor *= ['active', 'on-hold', 'draft', 'intended'].includes(status) ? 1 : 0.6 * (0.5 + 0.5 * Math.exp(-ageDays / 365));
    } else if (r.resourceType !== 'Observation') {
      reason.ageDays = Math.round(ageDays);
      factor *= 0.6 + 0.4 * Math.exp(-ageDays / 365);
    }
    const score = Math.min(1, (relevance * factor) / MAX_BOOST);
    reason.summary = summarize(r, reason);
    items.push({ resource: r, score: Math.round(score * 10000) / 10000, reason });
  }
  items.sort((a, b) => b.score - a.score || timeMillis(b.resource) - timeMillis(a.resource) || refOf(a.resource).localeCompare(refOf(b.resource)));
  return { items, topics, named };
}

export class UnknownTopicError extends Error {
  constructor(readonly topic: string, readonly known: string[]) {
    super(`Unknown evidence topic '${topic}'; known topics: ${known.join(', ')}`);
  }
}

/** Whether a problem or order is current (active problem, active order). */
function isCurrent(r: Resource): boolean {
  const rec = r as { status?: string; clinicalStatus?: { coding?: { code?: string }[] } };
  if (r.resourceType === 'Condition') return ['active', 'recurrence', 'relapse', undefined].includes(rec.clinicalStatus?.coding?.[0]?.code);
  return ['active', 'on-hold', 'draft', 'intended', undefined].includes(rec.status);
}

/** One key per concept: the drug ingredient, else the first SNOMED CT / LOINC / other code, else the text. */
function conceptKey(r: Resource, vocab: Vocabulary): string {
  const codes = [...itemCodes(r, vocab)];
  return codes.find((c) => vocab.concept('medication', c)) ?? codes.find((c) => c.startsWith('http://snomed.info/sct|')) ?? codes.sort()[0] ?? conceptOf(r)?.text ?? refOf(r);
}

/** Codes an item stands for: its codings expanded (ingredients, maps), and for free-text drugs the names in the text. */
function itemCodes(r: Resource, vocab: Vocabulary): Set<string> {
  const codes = vocab.expandCodings(codingsOf(r));
  for (const comp of (r as Observation).component ?? []) for (const c of vocab.expandCodings(comp.code?.coding)) codes.add(c);
  const text = conceptOf(r)?.text;
  if (text && (codes.size === 0 || r.resourceType.startsWith('Medication'))) for (const m of vocab.find(text)) for (const c of m.codes) codes.add(c);
  return codes;
}

function abnormalFlag(o: Observation): string | undefined {
  const code = o.interpretation?.flatMap((i) => i.coding ?? []).map((c) => c.code).find((c) => c && c !== 'N');
  if (code) return code;
  const v = o.valueQuantity?.value;
  const range = o.referenceRange?.[0];
  if (v === undefined || !range) return undefined;
  if (range.high?.value !== undefined && v > range.high.value) return 'H';
  if (range.low?.value !== undefined && v < range.low.value) return 'L';
  return undefined;
}

/** A change of 15% or more between the oldest and newest values of the last two years. */
function trendOf(list: Observation[], asOf: number): EvidenceReason['trend'] {
  const recent = list.filter((o) => o.valueQuantity?.value !== undefined && asOf - timeMillis(o) <= 730 * DAY);
  if (recent.length < 2) return undefined;
  const latest = recent[0];
  const oldest = recent[recent.length - 1];
  const from = oldest.valueQuantity!.value!;
  const to = latest.valueQuantity!.value!;
  if ((oldest.valueQuantity!.code ?? oldest.valueQuantity!.unit) !== (latest.valueQuantity!.code ?? latest.valueQuantity!.unit)) return undefined;
  const change = from === 0 ? 0 : (to - from) / Math.abs(from);
  if (Math.abs(change) < 0.15) return undefined;
  return { direction: change > 0 ? 'rising' : 'falling', from, to, unit: latest.valueQuantity!.unit, since: clinicalTime(oldest)?.slice(0, 10) ?? '', change: Math.round(change * 100) / 100 };
}

function summarize(r: Resource, reason: EvidenceReason): string {
  const parts: string[] = [];
  if (reason.named.length) parts.push(`named in the question (${reason.named.join(', ')})`);
  if (reason.groups.length) parts.push(`in ${reason.groups.map((g) => g.title).join(', ')}`);
  if (reason.abnormal) parts.push(`abnormal (${reason.abnormal})`);
  if (reason.seriesRank !== undefined) parts.push(reason.seriesRank === 0 ? `latest of ${reason.seriesLength}` : `${reason.seriesRank + 1} of ${reason.seriesLength} by date`);
  if (reason.trend) parts.push(`${reason.trend.direction} ${reason.trend.from} -> ${reason.trend.to}${reason.trend.unit ? ` ${reason.trend.unit}` : ''} since ${reason.trend.since}`);
  if (reason.status) parts.push(reason.status);
  if (reason.ageDays !== undefined) parts.push(`${reason.ageDays} days old`);
  return `${r.resourceType}: ${parts.join('; ')}`;
}
