// An example custom agent for `ehr-gym run --agent ./harness/agents/example-agent.ts` (copy it anywhere; a .js module
// works the same). A module's default export (or its `agent` export) is either an Agent - `{ name, run(ctx) }` - or,
// as here, a function of the run's model settings (--model, --temperature, --max-turns, ...) returning one.
//
// `run` gets the session (`ctx.session.fhirBaseUrl`, the FHIR base the grader will read), the instruction and the
// patient, and must act over HTTP only: plain FHIR requests on the session's base, or the gym tools through
// `ctx.gym.callTool` (the same tools a model gets; `ctx.gym.tools('openai' | 'anthropic' | 'neutral')` lists them). It
// ends by submitting an answer: `ctx.gym.submit(ctx.session.id, answer)` or the `finish` tool. What it returns is
// recorded with the episode: a transcript, token usage, and `error` for its own failures or `infraError` when
// something outside it (a model API, the network) failed, which keeps the episode out of pass@1.
import type { Agent, AgentContext, AgentOutcome } from './agent.ts';
import type { ModelSettings } from '../types.ts';

export default function createAgent(settings: ModelSettings): Agent {
  return {
    name: `example:${settings.model}`,
    async run(ctx: AgentContext): Promise<AgentOutcome> {
      const transcript: unknown[] = [{ instruction: ctx.instruction }];
      if (!ctx.patient) {
        await ctx.gym.submit(ctx.session.id, 'This example agent only reads one patient.');
        return { transcript, error: 'population task: not attempted' };
      }
      // A plain FHIR search on the session's base: audited like any client's request.
      const response = await fetch(`${ctx.session.fhirBaseUrl}/Observation?patient=${encodeURIComponent(ctx.patient)}&_sort=-date&_count=5`, {
        headers: { accept: 'application/fhir+json' },
      });
      if (response.status >= 500) return { transcript, infraError: `FHIR search answered ${response.status}` };
      const bundle = (await response.json()) as { entry?: { resource: { code?: { text?: string }; valueQuantity?: { value?: number; unit?: string } } }[] };
      const latest = (bundle.entry ?? []).map((e) => `${e.resource.code?.text ?? 'observation'}: ${e.resource.valueQuantity?.value ?? '?'} ${e.resource.valueQuantity?.unit ?? ''}`.trim());
      transcript.push({ latest });
      // The gym's finish tool submits the answer (a second way: ctx.gym.submit).
      const finished = await ctx.gym.callTool(ctx.session.id, 'finish', { answer: latest.length > 0 ? `Latest results: ${latest.join('; ')}` : 'No results found.' });
      transcript.push({ finish: finished.text });
      return { transcript };
    },
  };
}
