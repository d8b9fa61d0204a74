// Runs agent tools (./index.ts) against one session over HTTP, in-process (app.inject) or against a running server
// (fetch), so every tool call passes through the FHIR routes and lands in the audit log tagged with the tool's name.
import type { FastifyInstance } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import { TOOL_HEADER } from '../gym/audit-hook.ts';
import { defaultToolOptions, type ToolOptions } from '../gym/sessions.ts';
import type { HttpCall, HttpClient, ToolResult } from './tool.ts';
import { agentTools, findTool } from './index.ts';
import { truncate } from './render.ts';

export function injectClient(app: FastifyInstance): HttpClient {
  return async (call) => {
    const response = await app.inject({
      method: call.method, url: call.path, headers: { ...contentHeaders(call), ...call.headers },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
    return { status: response.statusCode, body: response.body };
  };
}

/** A client for a server at `serverUrl` (e.g. http://127.0.0.1:8080), for the stdio MCP server. */
export function fetchClient(serverUrl: string): HttpClient {
  const root = serverUrl.replace(/\/+$/, '');
  return async (call) => {
    const response = await fetch(root + call.path, {
      method: call.method, headers: { ...contentHeaders(call), ...call.headers },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    return { status: response.status, body: await response.text() };
  };
}

function contentHeaders(call: HttpCall): Record<string, string> {
  if (call.body === undefined) return { accept: 'application/fhir+json' };
  const type = call.method === 'PATCH' ? 'application/json-patch+json' : call.path.startsWith('/gym') ? 'application/json' : 'application/fhir+json';
  return { accept: 'application/fhir+json', 'content-type': type };
}

let validators: Map<string, ValidateFunction> | undefined;

function validatorFor(name: string): ValidateFunction | undefined {
  if (!validators) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    validators = new Map(agentTools.map((t) => [t.definition.name, ajv.compile(t.definition.parameters)]));
  }
  return validators.get(name);
}

export class ToolExecutor {
  private options: ToolOptions | undefined;

  /** `options` undefined: read the session's own tool options on first use. */
  constructor(private readonly http: HttpClient, readonly sessionId: string, options?: ToolOptions) {
    this.options = options;
  }

  get fhirBase(): string {
    return this.sessionId === 'default' ? '/fhir' : `/fhir/_session/${this.sessionId}`;
  }

  async call(name: string, rawArgs: unknown): Promise<ToolResult> {
    const tool = findTool(name);
    const validate = validatorFor(name);
    if (!tool || !validate) return { text: `Unknown tool '${name}'. Tools: ${agentTools.map((t) => t.definition.name).join(', ')}`, isError: true };
    const args = (rawArgs ?? {}) as Record<string, unknown>;
    if (!validate(args)) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message}`).join('; ');
      return { text: `Invalid arguments for ${name}: ${problems}`, isError: true };
    }
    const options = await this.toolOptions();
    const tagged: HttpClient = (call) => this.http({ ...call, headers: { ...call.headers, [TOOL_HEADER]: name } });
    const result = await tool.run({ http: tagged, fhirBase: this.fhirBase, sessionId: this.sessionId, options }, args);
    return { ...result, text: truncate(result.text, options.maxResultChars) };
  }

  private async toolOptions(): Promise<ToolOptions> {
    if (!this.options) {
      const response = await this.http({ method: 'GET', path: `/gym/sessions/${this.sessionId}` });
      const session = response.status === 200 ? (JSON.parse(response.body) as { toolOptions?: ToolOptions }) : undefined;
      this.options = session?.toolOptions ?? { ...defaultToolOptions };
    }
    return this.options;
  }
}
