// The gym tools as an MCP server bound to one session: over stdio (`ehr-gym mcp`) and streamable HTTP (`/mcp`).
// Tool schemas come straight from server/tools/index.ts (the low-level Server takes JSON Schema as is).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { notFound } from '../../resources/outcome.ts';
import type { SessionManager } from './sessions.ts';
import { injectClient, ToolExecutor } from '../tools/executor.ts';
import { gymTools, toMcpTool } from '../tools/index.ts';

/** Header (or `?session=` query parameter) naming the gym session an /mcp request acts in. */
export const MCP_SESSION_HEADER = 'x-ehr-gym-session';

export function createMcpServer(executor: ToolExecutor, instructions?: string): Server {
  const server = new Server(
    { name: 'ehr-gym', version: '0.1.0' },
    { capabilities: { tools: {} }, ...(instructions ? { instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: gymTools.map(toMcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const result = await executor.call(request.params.name, request.params.arguments ?? {});
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
    if (!session) throw notFound(id === undefined ? `Name the gym session with the ${MCP_SESSION_HEADER} header or ?session=` : `No session '${id}'`);
    const server = createMcpServer(new ToolExecutor(http, session.meta.id, session.meta.toolOptions), session.meta.instruction);
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

