// The `finish` tool: submit the final answer (POST /gym/sessions/{id}/submit), which ends the episode.
import type { AgentTool } from './tool.ts';
import { objectSchema } from './tool.ts';
import { render } from './render.ts';

export const finish: AgentTool = {
  definition: {
    name: 'finish',
    description: 'Submit the final answer and end the episode. Call once, when the task is done.',
    parameters: objectSchema({ answer: { type: 'string', description: 'The final answer or summary for the task' } }, ['answer']),
  },
  readOnly: false,
  run: async ({ http, sessionId, options }, args) => {
    const response = await http({ method: 'POST', path: `/gym/sessions/${sessionId}/submit`, body: { answer: args.answer } });
    if (response.status >= 400) return render(response, options);
    return { text: 'Answer submitted; the episode is over.', isError: false, finished: true };
  },
};
