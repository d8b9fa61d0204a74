// The optional LLM judge against a fake OpenAI-compatible server (a real HTTP server in the test; never a real model).
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JUDGE_PROMPT, judgeConfigFromEnv, judgeNote } from '../../../graders/documentation/judge.ts';

async function fakeLlm(t: Test, reply: (body: any) => { status?: number; content: string }) {
  const requests: { headers: IncomingMessage['headers']; body: any; url?: string }[] = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      requests.push({ headers: req.headers, body, url: req.url });
      const r = reply(body);
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
      res.end(r.status && r.status >= 400 ? r.content : JSON.stringify({ choices: [{ message: { role: 'assistant', content: r.content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

const rubric = [
  { id: 'plan-appropriate', description: 'The plan is appropriate for CKD G4 with hyperkalemia', points: 2 },
  { id: 'follow-up', description: 'A follow-up interval is given' },
];

t.test('off by default: no judge without configuration', async (t) => {
  t.equal(judgeConfigFromEnv({}), undefined);
  t.same(judgeConfigFromEnv({ EHR_GYM_JUDGE_BASE_URL: 'http://x/v1', EHR_GYM_JUDGE_MODEL: 'm' }), { baseUrl: 'http://x/v1', model: 'm', apiKey: undefined });
});

t.test('scores the rubric, records model and prompt', async (t) => {
  const llm = await fakeLlm(t, () => ({ content: JSON.stringify({ items: [{ id: 'plan-appropriate', met: true, rationale: 'holds the ACE inhibitor' }, { id: 'follow-up', met: false, rationale: 'none given' }] }) }));
  const result = await judgeNote({ baseUrl: llm.baseUrl, model: 'fake-judge', apiKey: 'k' }, 'Hold lisinopril; recheck potassium.', rubric, 'CKD consult');
  t.equal(result.model, 'fake-judge');
  t.equal(result.prompt.system, JUDGE_PROMPT);
  t.match(result.prompt.user, /Hold lisinopril/);
  t.equal(result.score, 2 / 3, 'points met / points');
  t.same(result.items.map((i) => [i.id, i.met]), [['plan-appropriate', true], ['follow-up', false]]);
  t.equal(llm.requests.length, 1);
  t.equal(llm.requests[0].url, '/v1/chat/completions');
  t.equal(llm.requests[0].body.model, 'fake-judge');
  t.equal(llm.requests[0].body.temperature, 0);
  t.equal(llm.requests[0].headers.authorization, 'Bearer k');
  t.same(llm.requests[0].body.messages.map((m: { role: string }) => m.role), ['system', 'user']);
});

t.test('failures are results with an error, scored 0', async (t) => {
  const bad = await fakeLlm(t, () => ({ content: 'I think it is fine.' }));
  const r1 = await judgeNote({ baseUrl: bad.baseUrl, model: 'm' }, 'note', rubric);
  t.equal(r1.score, 0);
  t.match(r1.error, /not JSON/);
  const down = await fakeLlm(t, () => ({ status: 500, content: 'overloaded' }));
  const r2 = await judgeNote({ baseUrl: down.baseUrl, model: 'm' }, 'note', rubric);
  t.match(r2.error, /500/);
  const missing = await fakeLlm(t, () => ({ content: JSON.stringify({ items: [{ id: 'follow-up', met: true }] }) }));
  const r3 = await judgeNote({ baseUrl: missing.baseUrl, model: 'm' }, 'note', rubric);
  t.equal(r3.score, 1 / 3);
  t.equal(r3.items[0].rationale, 'the judge did not rate this item');
});
