// The `evidence_search` tool: the chart items that bear on a clinical question for one patient, ranked
// (Patient/{id}/$evidence, server/operations/evidence.ts over resources/evidence/).
import type { AgentTool } from './tool.ts';
import { compactEvidence, render } from './render.ts';

/** The FHIR request a tool call stands for (GET path and query, relative to the FHIR base). */
export function evidenceSearchRequest(args: { patient: string; question?: string; topic?: string; count?: number }): { method: 'GET'; path: string; query: [string, string][] } {
  const query: [string, string][] = [];
  if (args.question) query.push(['question', args.question]);
  if (args.topic) query.push(['topic', args.topic]);
  if (args.count !== undefined) query.push(['_count', String(args.count)]);
  return { method: 'GET', path: `Patient/${encodeURIComponent(args.patient)}/$evidence`, query };
}

export const evidenceSearch: AgentTool = {
  definition: {
    name: 'evidence_search',
    description: 'Find the chart items that bear on a clinical question for one patient (labs, problems, medications, procedures), ' +
      'ranked by relevance with the reason each ranked (concept group, abnormal flag, recency, trend). ' +
      'Give a question in plain words and/or a topic: ckd-progression, anticoagulation-bleeding-risk, diabetes-control, hyperkalemia, ' +
      'heart-failure, thyroid, cardiovascular-risk, anemia. Returns {total, items: [{score, reason, resource}]}.',
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
  },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) => {
    const request = evidenceSearchRequest(args as Parameters<typeof evidenceSearchRequest>[0]);
    const query = request.query.length ? `?${new URLSearchParams(request.query).toString()}` : '';
    return render(await http({ method: 'GET', path: `${fhirBase}/${request.path}${query}` }), options, compactEvidence);
  },
};
