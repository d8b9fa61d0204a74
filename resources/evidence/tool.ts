// The `evidence_search` agent tool as data (name, description, JSON Schema of its arguments), in the shape of
// server/gym/tools.ts, and the FHIR call it maps to. The sessions' tool list decides whether to offer it.
import type { ToolDefinition } from '../../server/gym/tools.ts';

export const evidenceSearchTool: ToolDefinition = {
  name: 'evidence_search',
  description: 'Find the chart items that bear on a clinical question for one patient (labs, problems, medications, procedures), ' +
    'ranked by relevance with the reason each ranked (concept group, abnormal flag, recency, trend). ' +
    'Give a question in plain words and/or a topic: ckd-progression, anticoagulation-bleeding-risk, diabetes-control, hyperkalemia, ' +
    'heart-failure, thyroid, cardiovascular-risk, anemia. Returns a FHIR searchset Bundle (Patient/{patient}/$evidence).',
  parameters: {
    type: 'object',
    properties: {
      patient: { type: 'string', pattern: '^[A-Za-z0-9\\-.]{1,64}$', description: 'The Patient id' },
      question: { type: 'string', description: 'The clinical question, e.g. "Is her kidney function declining?"' },
      topic: { type: 'string', description: 'A topic name (see description); comma-separate several' },
      count: { type: 'integer', minimum: 1, maximum: 100, description: 'How many items to return (default 10)' },
    },
    required: ['patient'],
    additionalProperties: false,
  },
};

/** The FHIR request the tool call stands for (GET path and query, relative to the FHIR base). */
export function evidenceSearchRequest(args: { patient: string; question?: string; topic?: string; count?: number }): { method: 'GET'; path: string; query: [string, string][] } {
  const query: [string, string][] = [];
  if (args.question) query.push(['question', args.question]);
  if (args.topic) query.push(['topic', args.topic]);
  if (args.count !== undefined) query.push(['_count', String(args.count)]);
  return { method: 'GET', path: `Patient/${encodeURIComponent(args.patient)}/$evidence`, query };
}
