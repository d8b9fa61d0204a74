// $evidence: GET/POST [base]/Patient/[id]/$evidence?question=...&topic=...&_count=... - the chart items that bear on a
// clinical question, ranked (resources/evidence/). Not a standard FHIR operation; read-only.
import { integerParameter } from '../../resources/integer-parameter.ts';
import type { Resource } from '@medplum/fhirtypes';
import type { Operation } from './registry.ts';
import type { FhirRequest } from '../fhir-request.ts';
import { invalidParameter, notFound } from '../../resources/outcome.ts';
import { CHART_TYPES, PatientChart } from '../../resources/evidence/chart.ts';
import { rankEvidence, UnknownTopicError } from '../../resources/evidence/rank.ts';
import { evidenceBundle } from '../../resources/evidence/bundle.ts';
import { topicCatalogOf } from '../../resources/evidence/topics.ts';
import { vocabularyOf } from '../../resources/evidence/vocabulary.ts';

const MAX_COUNT = 100;

function params(req: FhirRequest): [string, string][] {
  const body = req.method === 'POST' ? req.body : undefined;
  const fromBody: [string, string][] = Array.isArray(body) ? (body as [string, string][])
    : body && typeof body === 'object' && (body as Resource).resourceType === 'Parameters'
      ? ((body as { parameter?: { name: string; valueString?: string; valueCode?: string; valueInteger?: number }[] }).parameter ?? [])
        .map((p) => [p.name, String(p.valueString ?? p.valueCode ?? p.valueInteger ?? '')] as [string, string])
      : [];
  return [...req.query, ...fromBody];
}

/** The patient's chart: every resource of the chart types whose patient/subject is the patient (index lookups). */
function patientChart(req: FhirRequest, patientId: string): PatientChart {
  const resources: Resource[] = [];
  for (const type of CHART_TYPES) {
    let ids: string[];
    try {
      ids = req.context.search.match(req.repo, type, [['patient', patientId]]);
    } catch {
      continue; // a type without a patient search parameter
    }
    for (const id of ids) {
      const r = req.repo.readLive(type, id);
      if (r) resources.push(r);
    }
  }
  return new PatientChart(resources);
}

export const evidenceOperation: Operation = {
  name: 'evidence',
  levels: ['instance'],
  types: ['Patient'],
  readOnly: true,
  documentation: 'Chart items ranked for a clinical question or topic (question, topic, _count, asOf); reasons in an entry extension',
  handler(req, target) {
    const id = target.id!;
    if (!req.repo.exists('Patient', id)) throw notFound(`Patient/${id} is not known`);
    const p = params(req);
    const question = p.filter(([n]) => n === 'question').map(([, v]) => v).join(' ').trim() || undefined;
    const topics = p.filter(([n]) => n === 'topic').flatMap(([, v]) => v.split(',')).map((t) => t.trim()).filter(Boolean);
    const count = integerParameter('_count', p.find(([n]) => n === '_count')?.[1], { min: 0, max: MAX_COUNT }) ?? 10;
    const asOf = p.find(([n]) => n === 'asOf')?.[1];
    if (asOf !== undefined && Number.isNaN(Date.parse(asOf))) throw invalidParameter(`asOf must be a date or dateTime, got '${asOf}'`);
    if (!question && !topics.length) throw invalidParameter('$evidence needs a question or a topic');
    const catalog = topicCatalogOf(req.context.terminology);
    let result;
    try {
      result = rankEvidence(patientChart(req, id), { question, topics, asOf: asOf ?? req.repo.now.toISOString() }, catalog, vocabularyOf(req.context.terminology));
    } catch (err) {
      if (err instanceof UnknownTopicError) throw invalidParameter(err.message);
      throw err;
    }
    const self = new URL(`${req.baseUrl}/Patient/${id}/$evidence`);
    for (const [n, v] of p) if (['question', 'topic', '_count', 'asOf'].includes(n)) self.searchParams.append(n, v);
    return { status: 200, body: evidenceBundle(result, { baseUrl: req.baseUrl, selfUrl: self.toString(), count }) };
  },
};
