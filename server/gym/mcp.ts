// The gym tools as an MCP server bound to one session: over stdio (`ehr-gym mcp`) and streamable HTTP (`/mcp`).
// Tool schemas come straight from server/tools/index.ts (the low-level Server takes JSON Schema as is), with the MCP
// tool annotations read from each tool's readOnly flag. A request naming no live session is answered with a JSON-RPC
// error (the client speaks JSON-RPC, not FHIR).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { SessionManager } from './sessions.ts';
import { injectClient, ToolExecutor } from '../tools/executor.ts';
import { agentTools, toMcpTool } from '../tools/index.ts';

/** Header (or `?session=` query parameter) naming the gym session an /mcp request acts in. */
export const MCP_SESSION_HEADER = 'x-ehr-gym-session';

/**
 * tools/list: each tool with its annotations (MCP 2025-03-26 ToolAnnotations, written by toMcpTool): readOnlyHint from
 * the tool's readOnly flag; destructiveHint for every tool that may change the session (a write, or the final answer,
 * which ends the episode); openWorldHint false: the tools act in this EHR session only.
 */
export function mcpTools() {
  return agentTools.map((t) => toMcpTool(t.definition));
}

/** JSON-RPC error code of a request naming no live gym session (the implementation-defined server-error range). */
export const MCP_NO_SESSION = -32001;

export function noSessionMessage(id: string): string {
  return `No gym session '${id}' (unknown or expired); create one with POST /gym/sessions`;
}

/**
 * `sessionAlive` is asked after a call answered 404: when the session itself is gone (expired or deleted while the
 * client was connected), the call is a JSON-RPC error saying so, not a tool result about a missing resource.
 */
export function createMcpServer(executor: ToolExecutor, instructions?: string, sessionAlive?: () => Promise<boolean>): Server {
  const server = new Server(
    { name: 'ehr-gym', version: '0.1.0' },
    { capabilities: { tools: {} }, ...(instructions ? { instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const result = await executor.call(request.params.name, request.params.arguments ?? {});
    if (result.isError && result.text.startsWith('{"error":404') && sessionAlive && !(await sessionAlive())) {
      throw new McpError(MCP_NO_SESSION, noSessionMessage(executor.sessionId));
    }
    return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError };
  });
  return server;
}

export interface McpRoutesOptions {
  sessions: SessionManager;
  root: FastifyInstance;
}

/**
 * Streamable HTTP, stateless: every POST builds a server bound to the session it names, answers, and is dropped.
 * The session is the gym session, not an MCP session, so no MCP session id is issued.
 */
export async function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions): Promise<void> {
  const http = injectClient(options.root);

  app.post('/mcp', async (request: FastifyRequest, reply: FastifyReply) => {
    const id = sessionIdOf(request);
    const session = id === undefined ? undefined : options.sessions.get(id);
    if (!session) {
      // 404 as for an MCP session the server no longer knows (MCP transports), with a JSON-RPC error the client reads.
      const message = id === undefined
        ? `Name the gym session with the ${MCP_SESSION_HEADER} header or ?session=`
        : noSessionMessage(id);
      const body = request.body as { id?: unknown } | undefined;
      const requestId = body && !Array.isArray(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
      return reply.code(404).header('content-type', 'application/json').send({ jsonrpc: '2.0', error: { code: MCP_NO_SESSION, message }, id: requestId });
    }
    const server = createMcpServer(new ToolExecutor(http, session.meta.id, session.meta.toolOptions), session.meta.instruction,
      async () => options.sessions.get(session.meta.id) !== undefined);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless streamable HTTP has no server-initiated stream and no MCP session to end (MCP spec, transports).
  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null });
  };
  app.get('/mcp', methodNotAllowed);
  app.delete('/mcp', methodNotAllowed);
}

function sessionIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers[MCP_SESSION_HEADER];
  if (typeof header === 'string' && header.length > 0) return header;
  const query = (request.query as { session?: string }).session;
  return typeof query === 'string' && query.length > 0 ? query : undefined;
}

