// The OpenEnv HTTP surface under /openenv (README.md here): reset, step, state, schema, metadata, health, MCP, and the
// WebSocket at /openenv/ws (./websocket.ts). OpenEnv's own server makes HTTP reset and step stateless (a fresh
// environment per request); here every reset starts an episode in a gym session, and a step names it by episode_id,
// so multi-step episodes run over plain HTTP too. Answers and refusals take OpenEnv's (FastAPI's) shapes.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FhirError } from '../../resources/outcome.ts';
import type { SessionManager } from '../gym/sessions.ts';
import { OpenEnvEpisodes } from './episodes.ts';
import { handleJsonRpc } from './mcp.ts';
import {
  actionSchema, checkAction, checkReset, checkStep, observationSchema, OpenEnvError, stateSchema,
} from './schemas.ts';
import { attachWebSocket } from './websocket.ts';

export interface OpenEnvRoutesOptions {
  sessions: SessionManager;
  /** The root app: episodes create, act in and grade their gym sessions through its routes, in process. */
  root: FastifyInstance;
}

const README = fileURLToPath(new URL('./README.md', import.meta.url));

export async function openenvRoutes(app: FastifyInstance, options: OpenEnvRoutesOptions): Promise<void> {
  const episodes = new OpenEnvEpisodes(options.sessions, options.root);
  app.setErrorHandler(renderOpenEnvError);
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ detail: `Not Found: ${request.method} ${request.url.split('?')[0]}` });
  });

  app.post('/reset', async (request) => episodes.reset(checkReset(request.body, ['body']), request.ip));

  app.post('/step', async (request) => {
    const body = checkStep(request.body);
    const action = checkAction(body.action, ['body', 'action']);
    if (body.episode_id === undefined) {
      throw new OpenEnvError(422, [{ type: 'missing', loc: ['body', 'episode_id'], msg: 'required over HTTP: the episode_id of POST /reset (or step over GET /ws, which holds its episode)' }]);
    }
    return episodes.step(body.episode_id, action);
  });

  app.get('/state', async (request) => {
    const { episode_id: id } = request.query as { episode_id?: string };
    return episodes.state(typeof id === 'string' && id.length > 0 ? id : undefined);
  });

  app.get('/schema', async () => ({ action: actionSchema, observation: observationSchema, state: stateSchema }));

  app.get('/metadata', async () => ({
    name: 'ehr-gym',
    description: 'A FHIR R4 EHR with clinical tasks: an agent acts on a patient chart through FHIR tools and is graded per checkpoint',
    ...(existsSync(README) ? { readme_content: readFileSync(README, 'utf8') } : {}),
  }));

  app.get('/health', async () => ({ status: 'healthy' }));

  app.post('/mcp', async (request) => handleJsonRpc(request.body, episodes));

  attachWebSocket(app, options.root, episodes, `${app.prefix}/ws`);
  app.get('/ws', async (_request, reply) => {
    reply.code(426).header('upgrade', 'websocket').send({ detail: 'GET /openenv/ws is a WebSocket: send Upgrade: websocket' });
  });
}

/** Every failure on this surface as FastAPI renders one: `{"detail": ...}` with the status; a body that is not JSON is a 422. */
function renderOpenEnvError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (err instanceof OpenEnvError) {
    reply.code(err.status).headers(err.headers).send({ detail: err.detail });
    return;
  }
  if (err instanceof FhirError) {
    // The body parsers' refusals (server/http/content-type.ts): not JSON, too deep, wrong media type.
    const message = err.outcome.issue.map((i) => i.diagnostics).filter(Boolean).join('; ');
    const status = err.status === 400 ? 422 : err.status;
    reply.code(status).headers(err.headers).send({ detail: status === 422 ? [{ type: 'json_invalid', loc: ['body'], msg: message }] : message });
    return;
  }
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    reply.code(err.statusCode === 400 ? 422 : err.statusCode).send({ detail: err.message });
    return;
  }
  request.log.error({ err }, 'openenv: unhandled error');
  reply.code(500).send({ detail: `Internal error: ${err.message}` });
}
