// The $evidence result as a FHIR searchset Bundle: one entry per ranked item, `search.score` in [0, 1], and the reasons
// it ranked in an extension on the entry (FHIR R4 Bundle.entry is a BackboneElement and may carry extensions).
import type { Bundle, BundleEntry, Extension, OperationOutcome } from '@medplum/fhirtypes';
import type { RankResult, EvidenceReason } from './rank.ts';

export const EVIDENCE_REASON_URL = 'http://ehr-gym.example/fhir/StructureDefinition/evidence-reason';
export const EVIDENCE_GROUP_SYSTEM = 'http://ehr-gym.example/fhir/ValueSet';

export function reasonExtension(reason: EvidenceReason): Extension {
  const ext: Extension[] = [];
  for (const g of reason.groups) ext.push({ url: 'group', valueCoding: { system: EVIDENCE_GROUP_SYSTEM, code: `evidence-group-${g.name}`, display: g.title } });
  for (const n of reason.named) ext.push({ url: 'named', valueString: n });
  if (reason.abnormal) ext.push({ url: 'abnormal', valueCode: reason.abnormal });
  if (reason.status) ext.push({ url: 'status', valueCode: reason.status });
  if (reason.ageDays !== undefined) ext.push({ url: 'ageDays', valueDecimal: reason.ageDays });
  if (reason.seriesRank !== undefined) ext.push({ url: 'recency', valueString: reason.seriesRank === 0 ? `latest of ${reason.seriesLength}` : `${reason.seriesRank + 1} of ${reason.seriesLength} by date` });
  if (reason.trend) ext.push({ url: 'trend', valueString: `${reason.trend.direction} ${reason.trend.from} -> ${reason.trend.to}${reason.trend.unit ? ` ${reason.trend.unit}` : ''} since ${reason.trend.since} (${reason.trend.change > 0 ? '+' : ''}${Math.round(reason.trend.change * 100)}%)` });
  ext.push({ url: 'summary', valueString: reason.summary });
  return { url: EVIDENCE_REASON_URL, extension: ext };
}

export function evidenceBundle(result: RankResult, options: { baseUrl: string; selfUrl: string; count: number }): Bundle {
  const entries: BundleEntry[] = result.items.slice(0, options.count).map((item) => ({
    fullUrl: `${options.baseUrl}/${item.resource.resourceType}/${item.resource.id}`,
    resource: item.resource,
    search: { mode: 'match', score: item.score },
    extension: [reasonExtension(item.reason)],
  }));
  const notes: string[] = [];
  if (result.topics.length) notes.push(`Topics: ${result.topics.map((t) => t.title).join(', ')}`);
  if (result.named.length) notes.push(`Named in the question: ${result.named.join(', ')}`);
  if (!result.topics.length && !result.named.length) notes.push('The question names no known topic or concept; try a topic (e.g. ckd-progression) or name the test, drug or problem');
  const outcome: OperationOutcome = { resourceType: 'OperationOutcome', issue: notes.map((n) => ({ severity: 'information', code: 'informational', diagnostics: n })) };
  entries.push({ resource: outcome, search: { mode: 'outcome' } });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: result.items.length,
    link: [{ relation: 'self', url: options.selfUrl }],
    entry: entries,
  };
}
