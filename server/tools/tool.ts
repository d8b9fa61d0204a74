// What an agent tool is: one value holding its definition (name, description, JSON Schema of its arguments), whether
// it changes the session's state, and how it runs as HTTP calls against the session's FHIR base. Every tool is such a
// value in this folder (./index.ts lists them); formats (OpenAI, Anthropic, MCP) and the executor read the same value.
import type { ToolOptions } from '../gym/sessions.ts';

export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path from the server root, with query, e.g. `/fhir/_session/abc/Patient?name=x`. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpResult {
  status: number;
  body: string;
}

export type HttpClient = (call: HttpCall) => Promise<HttpResult>;

export interface ToolResult {
  /** Compact JSON (or a short message) for the model. */
  text: string;
  isError: boolean;
  /** True once `finish` submitted an answer. */
  finished?: boolean;
}

/** What a tool's `run` is given: the session's HTTP surface, already tagged with the tool's name for the audit log. */
export interface ToolCall {
  /** Sends one request; the tool header (audit log `tool`) is added to every call. */
  http: HttpClient;
  /** `/fhir` or `/fhir/_session/{id}`. */
  fhirBase: string;
  sessionId: string;
  options: ToolOptions;
}

export type ToolArgs = Record<string, any>;

export interface AgentTool {
  definition: ToolDefinition;
  /** False when a call may change the session (a FHIR write or the final answer): tau2-style state declaration. */
  readOnly: boolean;
  /** Runs a call whose arguments already passed `definition.parameters`. */
  run(call: ToolCall, args: ToolArgs): Promise<ToolResult>;
}

export function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}
