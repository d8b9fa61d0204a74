// OpenEnv's WebSocket session (GET /openenv/ws): one connection holds one episode at a time. Client messages
// `{"type": "reset"|"step"|"state"|"close"|"mcp", "data": {...}}`; server messages `{"type": "observation"|"state"|
// "mcp"|"error", "data": {...}}`, errors with OpenEnv's codes (INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR,
// EXECUTION_ERROR). Messages of a connection are handled in order. A new reset, a close message or the connection
// ending closes the connection's episode and deletes its gym session, as OpenEnv destroys a session's environment.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { OpenEnvEpisodes } from './episodes.ts';
import { handleJsonRpc } from './mcp.ts';
import { checkAction, checkReset, OpenEnvError } from './schemas.ts';

/** The largest message taken, as the HTTP body limit (server/app.ts). */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export function attachWebSocket(app: FastifyInstance, root: FastifyInstance, episodes: OpenEnvEpisodes, path: string): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (request.url ?? '').split('?')[0].replace(/\/+$/, '');
    if (pathname !== path) {
      // Nobody else takes upgrades: refuse rather than leave the socket hanging.
      if (root.server.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // The per-client session limits count the peer address (a proxy's forwarded address is not read here).
    wss.handleUpgrade(request, socket, head, (ws) => {
      const ended = serve(ws, episodes, request.socket.remoteAddress ?? 'unknown');
      open.add(ended);
      void ended.then(() => open.delete(ended));
    });
  };
  /** Each open connection's end: its last message handled and its episode closed. */
  const open = new Set<Promise<void>>();
  root.server.on('upgrade', onUpgrade);
  // Open connections would hold the server's close, and their episodes must be closed while the store is open.
  app.addHook('preClose', async () => {
    root.server.off('upgrade', onUpgrade);
    for (const ws of wss.clients) ws.terminate();
    await Promise.all(open);
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
}

/** Serves one connection; resolves once it has closed and its episode with it. */
function serve(ws: WebSocket, episodes: OpenEnvEpisodes, client: string): Promise<void> {
  let current: string | undefined;
  // The session behind `current` when this connection started it: a reset elsewhere reusing the id takes it over.
  let currentSession: string | undefined;
  let chain: Promise<void> = Promise.resolve();
  const send = (type: string, data: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type, data }));
  };
  const closeEpisode = () => {
    if (current !== undefined) episodes.close(current, currentSession);
    current = undefined;
    currentSession = undefined;
  };

  /** This connection's episode, unless a reset elsewhere took its id over (an expired one is the step's 404). */
  const owned = (): string | undefined => {
    const now = current === undefined ? undefined : episodes.sessionOf(current);
    if (now !== undefined && now !== currentSession) {
      throw new OpenEnvError(409, `Episode '${current}' was replaced by another reset with the same episode_id; reset for another`);
    }
    return current;
  };

  const handle = async (text: string): Promise<void> => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (err) {
      return send('error', { message: `Invalid JSON: ${(err as Error).message}`, code: 'INVALID_JSON' });
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return send('error', { message: 'A message is an object {type, data}', code: 'VALIDATION_ERROR' });
    }
    const { type, data, ...extra } = message as { type?: unknown; data?: unknown };
    if (Object.keys(extra).length > 0) {
      return send('error', { message: 'Invalid message', code: 'VALIDATION_ERROR', errors: Object.keys(extra).map((k) => ({ type: 'extra_forbidden', loc: [k], msg: 'Extra inputs are not permitted' })) });
    }
    try {
      switch (type) {
        case 'reset': {
          const params = checkReset(data, ['data']);
          closeEpisode();
          const result = await episodes.reset(params, client);
          current = result.observation.episode_id;
          currentSession = episodes.sessionOf(current);
          return send('observation', result);
        }
        case 'step': {
          const action = checkAction(data, ['data']);
          const episode = owned();
          if (episode === undefined) throw new OpenEnvError(409, 'No episode on this connection: send a reset first');
          return send('observation', await episodes.step(episode, action));
        }
        case 'state':
          return send('state', episodes.state(owned()));
        case 'close':
          closeEpisode();
          ws.close(1000);
          return;
        case 'mcp':
          return send('mcp', await handleJsonRpc(data, episodes, owned()));
        default:
          return send('error', { message: `Unknown message type: ${String(type)}`, code: 'UNKNOWN_TYPE' });
      }
    } catch (err) {
      if (err instanceof OpenEnvError && err.status === 422) {
        return send('error', { message: 'Invalid message', code: 'VALIDATION_ERROR', errors: err.detail });
      }
      const status = err instanceof OpenEnvError ? err.status : 500;
      return send('error', { message: (err as Error).message, code: 'EXECUTION_ERROR', status });
    }
  };

  ws.on('message', (data, isBinary) => {
    chain = chain.then(() => (isBinary
      ? send('error', { message: 'Messages are JSON text frames', code: 'INVALID_JSON' })
      : handle(data.toString())))
      .catch((err: Error) => send('error', { message: err.message, code: 'EXECUTION_ERROR', status: 500 }));
  });
  return new Promise<void>((resolve) => {
    ws.on('close', () => {
      // A failure here has no client left to tell (and must not become an unhandled rejection).
      void chain.then(closeEpisode).catch(() => undefined).then(resolve);
    });
  });
}
