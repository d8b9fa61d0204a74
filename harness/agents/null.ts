// The null agent: does nothing and answers nothing. Every action and documentation checkpoint must fail against it.
import type { Agent } from './agent.ts';

export const nullAgent: Agent = {
  name: 'null',
  run: async () => ({ transcript: [] }),
};
