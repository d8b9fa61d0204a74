// Shared pieces of the fuzz suite (issue 14, "A fuzz suite"): the real app on a real socket, a client that turns a
// reply into a verdict (never 5xx, every error body a JSON OperationOutcome, an answer before the client's timeout),
// and the fast-check run settings. Properties fix `seed` and `numRuns` so a CI run is the same run every time.
import type { Test } from 'tap';
import net from 'node:net';
import fc from 'fast-check';
import { startServer, type TestServer } from '../test-server.ts';
import { noClientLimits } from '../../../server/gym/sessions.ts';
import type { AppOptions } from '../../../server/app.ts';

/**
 * One seed for the whole suite; a failure report repeats it with the shrunk counterexample. FUZZ_SEED and
 * FUZZ_RUNS (a multiplier of each property's runs) explore further by hand; CI runs the fixed default.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 1402);
const RUNS_FACTOR = Number(process.env.FUZZ_RUNS ?? 1);

/** A request that has not answered within this long counts as a hang (no timing is asserted otherwise). */
export const HANG_MS = 20_000;

export interface FuzzServer extends TestServer {
  /** http://127.0.0.1:PORT */
  root: string;
  port: number;
}

/** The real app listening on an ephemeral port, with the per-client session limits off (the fuzzer is one client). */
export async function startFuzzServer(t: Test, options: AppOptions = {}): Promise<FuzzServer> {
  const server = await startServer(t, { ...options, gym: { ...noClientLimits, maxSessions: 10_000, ...options.gym } });
  const port = (server.app.server.address() as net.AddressInfo).port;
  return { ...server, root: `http://127.0.0.1:${port}`, port };
}

export interface FuzzRequest {
  method: string;
  /** Path and query as sent (already escaped where it must be). */
  path: string;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  contentType?: string;
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * Sends the request with fetch and returns what is wrong with the answer, or undefined when it meets the contract:
 * status below 500, and an error status carries a JSON OperationOutcome.
 */
export async function defect(root: string, req: FuzzRequest): Promise<string | undefined> {
  let answer: Answer;
  try {
    answer = await send(root, req);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError') return `hang: no answer within ${HANG_MS} ms`;
    return `transport failure: ${e.message} ${(e.cause as Error | undefined)?.message ?? ''}`;
  }
  // A HEAD answer has no body by definition (RFC 9110 9.3.2): only its status is judged.
  if (req.method === 'HEAD') return answer.status >= 500 ? `status ${answer.status} to HEAD` : undefined;
  return verdict(answer);
}

/** Statuses `defect` saw since the last property report: shows what the generated requests reached. */
const statuses = new Map<number, number>();

export async function send(root: string, req: FuzzRequest): Promise<Answer> {
  const hasBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
  const res = await fetch(`${root}${req.path}`, {
    method: req.method,
    headers: hasBody ? { 'content-type': req.contentType ?? 'application/fhir+json' } : {},
    body: hasBody ? (typeof req.body === 'string' ? req.body : JSON.stringify(req.body)) : undefined,
    signal: AbortSignal.timeout(HANG_MS),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** What is wrong with an answer, or undefined. */
export function verdict(answer: Answer): string | undefined {
  const excerpt = answer.body.slice(0, 300);
  if (answer.status >= 500) return `status ${answer.status}: ${excerpt}`;
  if (answer.status < 400) return undefined;
  let parsed: { resourceType?: unknown; issue?: unknown } | undefined;
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    return `status ${answer.status} with a non-JSON body (${answer.contentType}): ${JSON.stringify(excerpt)}`;
  }
  if (parsed?.resourceType !== 'OperationOutcome' || !Array.isArray(parsed.issue) || parsed.issue.length === 0) {
    return `status ${answer.status} without an OperationOutcome: ${excerpt}`;
  }
  if (!/^application\/(fhir\+)?json/.test(answer.contentType)) return `status ${answer.status} with content type ${answer.contentType}`;
  return undefined;
}

/**
 * Runs an async property and fails the test with fast-check's report (seed, path, counterexample) when it fails.
 * The predicate returns a defect description or undefined.
 */
export async function checkProperty<T>(t: Test, name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<string | undefined>, numRuns: number): Promise<void> {
  const found: string[] = [];
  const details = await fc.check(
    fc.asyncProperty(arb, async (value) => {
      const problem = await predicate(value);
      if (problem) found.push(problem);
      return problem === undefined;
    }),
    // Shrinking replays requests; a bounded number keeps a failing run short while still simplifying the input.
    { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(numRuns * RUNS_FACTOR)), maxSkipsPerRun: 0, endOnFailure: false, interruptAfterTimeLimit: 90_000, markInterruptAsFailure: false },
  );
  const seen = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  statuses.clear();
  t.comment(`${name}: statuses ${seen}`);
  if (details.failed) {
    t.fail(`${name}: ${found.at(-1) ?? 'property failed'}\n${fc.defaultReportMessage(details)}`);
  } else {
    t.pass(`${name}: ${details.numRuns} runs (seed ${FUZZ_SEED}), no 5xx, no hang, every error an OperationOutcome`);
  }
}

/** Raw bytes on a socket; resolves with everything the server wrote before closing (or after `HANG_MS`, rejecting). */
export function rawExchange(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`hang: the server neither answered nor closed within ${HANG_MS} ms`));
    }, HANG_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** The first HTTP answer in raw bytes, as an Answer (a chunked body is de-chunked). */
export function parseRaw(text: string): Answer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, split < 0 ? text.length : split).split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body = split < 0 ? '' : text.slice(split + 4);
  const length = headers.get('content-length');
  if (length !== undefined) body = Buffer.from(body).subarray(0, Number(length)).toString('utf8');
  else if (headers.get('transfer-encoding') === 'chunked') body = dechunk(body);
  return { status: Number(statusLine.split(' ')[1] ?? 0), contentType: headers.get('content-type') ?? '', body };
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
