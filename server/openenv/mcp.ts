// OpenEnv's MCP endpoint (POST /openenv/mcp, and `{"type": "mcp"}` messages on the WebSocket): plain JSON-RPC 2.0
// with tools/list and tools/call, as OpenEnv's server answers them (JSON-RPC errors in a 200 answer). A tools/call is
// a step of the episode named by params.session_id (or episode_id; on a WebSocket, the connection's own episode):
// the same tool executor, step count and end of episode at `finish` as POST /step. Agents reach the tools here;
// trainers read the reward from reset/step/state (OpenEnv's rule), so the result carries no reward.
import { agentTools, toMcpTool } from '../tools/index.ts';
import type { OpenEnvEpisodes } from './episodes.ts';

type Id = string | number | null;

interface JsonRpcAnswer {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string };
}

// JSON-RPC 2.0 error codes (section 5.1), and the implementation-defined server error for a step the episode refused.
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const SERVER_ERROR = -32000;

export async function handleJsonRpc(body: unknown, episodes: OpenEnvEpisodes, connectionEpisode?: string): Promise<JsonRpcAnswer> {
  const request = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const rawId = request?.id;
  const id: Id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  const fail = (code: number, message: string): JsonRpcAnswer => ({ jsonrpc: '2.0', id, error: { code, message } });
  if (!request || request.jsonrpc !== '2.0' || typeof request.method !== 'string') return fail(INVALID_REQUEST, 'Invalid Request: a JSON-RPC 2.0 object with a method');
  const params = request.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return fail(INVALID_PARAMS, 'Params must be an object');
  const p = params as { name?: unknown; arguments?: unknown; session_id?: unknown; episode_id?: unknown };

  switch (request.method) {
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools: agentTools.map((t) => toMcpTool(t.definition)) } };
    case 'tools/call': {
      if (typeof p.name !== 'string' || p.name === '') return fail(INVALID_PARAMS, 'Missing \'name\' in params');
      if (p.arguments !== undefined && (typeof p.arguments !== 'object' || p.arguments === null || Array.isArray(p.arguments))) {
        return fail(INVALID_PARAMS, '\'arguments\' must be an object');
      }
      const named = typeof p.session_id === 'string' ? p.session_id : typeof p.episode_id === 'string' ? p.episode_id : undefined;
      const episode = named ?? connectionEpisode;
      if (episode === undefined) return fail(INVALID_PARAMS, 'Name the episode: params.session_id (the episode_id POST /reset answered)');
      if (!episodes.has(episode)) return fail(INVALID_PARAMS, `Unknown session_id: ${episode}`);
      try {
        const { observation } = await episodes.step(episode, { type: 'call_tool', tool_name: p.name, arguments: (p.arguments ?? {}) as Record<string, unknown> });
        return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: observation.result ?? '' }], isError: observation.is_error } };
      } catch (err) {
        return fail(SERVER_ERROR, (err as Error).message);
      }
    }
    default:
      return fail(METHOD_NOT_FOUND, `Method not found: ${request.method}`);
  }
}
