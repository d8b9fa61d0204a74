// `ehr-gym tools` and `ehr-gym mcp` as a user runs them: a bad --format is a usage error; --strict prints the strict
// schemas the agents send; the mcp format carries the annotations; `ehr-gym mcp` with an unknown session or an
// unreachable server says so in one line with its exit code, never a stack trace.
import t from 'tap';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { MCP_NO_SESSION_EXIT_CODE } from '../../harness/cli.ts';
import { openAiTools } from '../../harness/agents/openai.ts';
import { anthropicTools } from '../../harness/agents/anthropic.ts';
import { mcpTools } from '../../server/gym/mcp.ts';
import { gymTools } from '../../server/tools/index.ts';
import { startGym } from '../server/gym/gym-harness.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const projectRoot = new URL('../../', import.meta.url).pathname;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/ehr-gym.ts', ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const noStack = /\n\s+at /;

t.test('ehr-gym tools: formats, --strict, and a usage error for a bad format', async (t) => {
  const bogus = await cli(['tools', '--format', 'bogus']);
  t.equal(bogus.code, 1);
  t.equal(bogus.stdout, '');
  t.match(bogus.stderr, /^error: option '--format <format>' argument 'bogus' is invalid\. Allowed choices are openai, anthropic, mcp, neutral\.\n$/);
  const strict = await cli(['tools', '--format', 'openai', '--strict']);
  t.equal(strict.code, 0, strict.stderr);
  t.same(JSON.parse(strict.stdout), openAiTools([...gymTools], true), 'what --agent openai --strict sends');
  const anthropic = await cli(['tools', '--format', 'anthropic', '--strict']);
  t.same(JSON.parse(anthropic.stdout), anthropicTools([...gymTools], true));
  const mcp = await cli(['tools', '--format', 'mcp']);
  t.same(JSON.parse(mcp.stdout), mcpTools(), 'what MCP tools/list answers, annotations included');
  const wrong = await cli(['tools', '--format', 'neutral', '--strict']);
  t.equal(wrong.code, 1);
  t.match(wrong.stderr, /^error: --strict applies to --format openai or anthropic, not neutral\n$/);
});

t.test('ehr-gym mcp: an unknown session or an unreachable server is one line and an exit code', async (t) => {
  const gym = await startGym(t);
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const unknown = await cli(['mcp', '--url', address, '--session', 'AAAAAAAAAAAAAAAAAAAAAAAA']);
  t.equal(unknown.code, MCP_NO_SESSION_EXIT_CODE);
  t.equal(unknown.stdout, '', 'nothing on the protocol stream');
  t.match(unknown.stderr, /^ehr-gym mcp: no gym session 'AAAAAAAAAAAAAAAAAAAAAAAA' \(unknown or expired\); create one with POST \/gym\/sessions or leave out --session\n$/);

  // A port nothing listens on: take one, then free it.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const unreachable = await cli(['mcp', '--url', `http://127.0.0.1:${port}`, '--session', 'x']);
  t.equal(unreachable.code, 1);
  t.match(unreachable.stderr, /^ehr-gym mcp: fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\n$/);
  t.notMatch(unreachable.stderr, noStack);

  const badClock = await cli(['mcp', '--url', address, '--now', 'yesterday']);
  t.equal(badClock.code, 1);
  t.match(badClock.stderr, /^ehr-gym mcp: could not create a session \(400\): now must be an instant with a time zone/);
  t.notMatch(badClock.stderr, noStack);
});

t.test('ehr-gym mcp: a session that ends while the client is connected answers its calls with a JSON-RPC error', async (t) => {
  const gym = await startGym(t);
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const s = await gym.createSession();
  const client = new Client({ name: 'ehr-gym-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'bin/ehr-gym.ts', 'mcp', '--url', address, '--session', s.id], cwd: projectRoot, stderr: 'pipe' }));
  t.teardown(() => client.close());
  const missing = await client.callTool({ name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'nobody' } });
  t.equal(missing.isError, true, 'a missing resource in a live session stays a tool error');
  await gym.json('DELETE', `/gym/sessions/${s.id}`);
  await t.rejects(client.callTool({ name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'p1' } }), new RegExp(`MCP error -32001: No gym session '${s.id}' \\(unknown or expired\\)`));
});
