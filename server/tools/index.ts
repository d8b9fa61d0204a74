// The agent tools, in the order a model sees them, and their renderings for each consumer: OpenAI function calling,
// Anthropic tool use, MCP (server/gym/mcp.ts) and a neutral list. Each tool is one value (./tool.ts) in this folder.
import type { AgentTool, ToolDefinition } from './tool.ts';
import { fhirCreate, fhirDelete, fhirHistory, fhirPatch, fhirRead, fhirSearch, fhirUpdate } from './fhir-rest.ts';
import { terminologyLookup, terminologySearch } from './terminology.ts';
import { runView, sqlQuery } from './views.ts';
import { evidenceSearch } from './evidence.ts';
import { finish } from './finish.ts';

export const agentTools: readonly AgentTool[] = [
  fhirSearch, fhirRead, fhirCreate, fhirUpdate, fhirPatch, fhirDelete, fhirHistory,
  terminologySearch, terminologyLookup, runView, sqlQuery, evidenceSearch, finish,
];

export const gymTools: readonly ToolDefinition[] = agentTools.map((t) => t.definition);

export function findTool(name: string): AgentTool | undefined {
  return agentTools.find((t) => t.definition.name === name);
}

export type ToolFormat = 'openai' | 'anthropic' | 'mcp' | 'neutral';
export const toolFormats: readonly ToolFormat[] = ['openai', 'anthropic', 'mcp', 'neutral'];

/** OpenAI Chat Completions / Responses function-calling tool. */
export function toOpenAiTool(tool: ToolDefinition) {
  return { type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** Anthropic Messages API tool. */
export function toAnthropicTool(tool: ToolDefinition) {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

/**
 * MCP tools/list entry, with the annotations MCP clients use to ask before a change (from the tool's readOnly flag;
 * every tool acts on this server only, so none is open-world). Every MCP surface (server/gym/mcp.ts, the OpenEnv MCP
 * route, GET /gym/tools?format=mcp) lists tools through this.
 */
export function toMcpTool(tool: ToolDefinition) {
  const readOnly = findTool(tool.name)?.readOnly;
  return {
    name: tool.name, description: tool.description, inputSchema: tool.parameters as { type: 'object'; [key: string]: unknown },
    ...(readOnly === undefined ? {} : { annotations: { readOnlyHint: readOnly, destructiveHint: !readOnly, openWorldHint: false } }),
  };
}

export function renderTools(format: ToolFormat, tools: readonly ToolDefinition[] = gymTools): unknown[] {
  switch (format) {
    case 'openai': return tools.map(toOpenAiTool);
    case 'anthropic': return tools.map(toAnthropicTool);
    case 'mcp': return tools.map(toMcpTool);
    case 'neutral': return tools.map((t) => ({ ...t }));
  }
}
