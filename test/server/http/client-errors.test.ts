// Every 4xx is an OperationOutcome (issue 14, "Every 4xx is an OperationOutcome"), including requests Node's HTTP
// parser refuses before Fastify sees them (bad bytes in the path or a header, headers over 16 KB, a malformed request
// line or chunk), an HTTP/1.1 request without Host, and Fastify's own 404, 413 and 415. Raw bytes on a real socket.
import t, { type Test } from 'tap';
import net from 'node:net';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { startServer } from '../test-server.ts';

interface RawAnswer {
  statusLine: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection. */
  closed: boolean;
}

/** Writes `request` as is and reads the first answer (the server closes after a parser error; else Connection: close). */
function raw(port: number, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ statusLine, status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4), closed: true });
    });
  });
}

function assertRawOutcome(t: Test, answer: RawAnswer, status: number, code: string, label: string): void {
  t.equal(answer.status, status, `${label}: ${status} (${answer.statusLine})`);
  t.match(answer.headers['content-type'], /^application\/fhir\+json(;|$)/, `${label}: FHIR JSON`);
  let oo: OperationOutcome | undefined;
  try {
    oo = JSON.parse(answer.body) as OperationOutcome;
  } catch {
    t.fail(`${label}: the body is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`);
    return;
  }
  t.equal(oo.resourceType, 'OperationOutcome', `${label}: an OperationOutcome`);
  t.equal(oo.issue?.[0]?.severity, 'error', `${label}: an error issue`);
  t.equal(oo.issue?.[0]?.code, code, `${label}: issue code ${code}`);
  if (answer.headers['content-length'] !== undefined) {
    t.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.body), `${label}: Content-Length is the body's`);
  }
}

const CLOSE = 'Connection: close\r\n';

t.test('requests the HTTP parser refuses get an OperationOutcome on the socket', async (t) => {
  const { app } = await startServer(t);
  const port = (app.server.address() as net.AddressInfo).port;
  const cases: [string, string | Buffer, number, string][] = [
    ['a control byte in the path', `GET /fhir/Pat\x01ient HTTP/1.1\r\nHost: h\r\n${CLOSE}\r\n`, 400, 'invalid'],
    ['a space inside the path', `GET /fhir/Pat ient/x HTTP/1.1\r\nHost: h\r\n${CLOSE}\r\n`, 400, 'invalid'],
    ['a control byte in a header value', `GET /fhir/metadata HTTP/1.1\r\nHost: h\r\nX-Bad: a\x01b\r\n${CLOSE}\r\n`, 400, 'invalid'],
    ['a header name with a space', `GET /fhir/metadata HTTP/1.1\r\nHost: h\r\nBad Name: v\r\n${CLOSE}\r\n`, 400, 'invalid'],
    ['a NUL byte in a header', Buffer.from(`GET /fhir/metadata HTTP/1.1\r\nHost: h\r\nX-Nul: a\0b\r\n${CLOSE}\r\n`, 'latin1'), 400, 'invalid'],
    ['headers over 16 KB', `GET /fhir/metadata HTTP/1.1\r\nHost: h\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n${CLOSE}\r\n`, 431, 'too-costly'],
    ['a path over 16 KB', `GET /fhir/Patient?name=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: h\r\n${CLOSE}\r\n`, 431, 'too-costly'],
    ['an unknown method token', `FR(OB /fhir/metadata HTTP/1.1\r\nHost: h\r\n${CLOSE}\r\n`, 400, 'invalid'],
    ['a malformed version', `GET /fhir/metadata HTTP/9.x\r\nHost: h\r\n${CLOSE}\r\n`, 400, 'invalid'],
    ['both Content-Length and chunked', `POST /fhir/Patient HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n${CLOSE}\r\n0\r\n\r\n`, 400, 'invalid'],
    ['a malformed chunk size', `POST /fhir/Patient HTTP/1.1\r\nHost: h\r\nContent-Type: application/fhir+json\r\nTransfer-Encoding: chunked\r\n${CLOSE}\r\nzz\r\n{}\r\n0\r\n\r\n`, 400, 'invalid'],
    ['a bare LF line ending in the headers', `GET /fhir/metadata HTTP/1.1\r\nHost: h\nX-A: b\r\n${CLOSE}\r\n`, 400, 'invalid'],
  ];
  for (const [label, request, status, code] of cases) assertRawOutcome(t, await raw(port, request), status, code, label);
});

t.test('HTTP/1.1 without Host is a 400 OperationOutcome (RFC 9112 3.2); HTTP/1.0 without Host is served', async (t) => {
  const { app } = await startServer(t);
  const port = (app.server.address() as net.AddressInfo).port;
  for (const path of ['/fhir/metadata', '/gym/tools', '/nothing-here']) {
    const answer = await raw(port, `GET ${path} HTTP/1.1\r\n${CLOSE}\r\n`);
    assertRawOutcome(t, answer, 400, 'invalid', `no Host: ${path}`);
    t.match(JSON.parse(answer.body).issue[0].diagnostics, /Host/, 'it says what is missing');
  }
  const old = await raw(port, 'GET /fhir/Patient?_count=1 HTTP/1.0\r\n\r\n');
  t.equal(old.status, 200, 'HTTP/1.0 has no Host requirement');
});

t.test('Fastify\'s own refusals over a real socket: 404 unknown route, 413 body too large, 415 media type', async (t) => {
  const { app } = await startServer(t, { bodyLimit: 1024 });
  const port = (app.server.address() as net.AddressInfo).port;
  const post = (path: string, type: string, body: string) =>
    `POST ${path} HTTP/1.1\r\nHost: h\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${CLOSE}\r\n${body}`;
  assertRawOutcome(t, await raw(port, `GET /not-a-route HTTP/1.1\r\nHost: h\r\n${CLOSE}\r\n`), 404, 'not-found', 'unknown route');
  assertRawOutcome(t, await raw(port, `OPTIONS /fhir/metadata HTTP/1.1\r\nHost: h\r\n${CLOSE}\r\n`), 404, 'not-found', 'a method with no route');
  assertRawOutcome(t, await raw(port, post('/fhir/Patient', 'application/fhir+json', JSON.stringify({ resourceType: 'Patient', text: 'x'.repeat(4096) }))),
    413, 'too-costly', 'a body over the limit');
  assertRawOutcome(t, await raw(port, post('/fhir/Patient', 'text/plain', 'hello')), 415, 'not-supported', 'text/plain');
  assertRawOutcome(t, await raw(port, post('/gym/sessions', 'application/xml', '<a/>')), 415, 'not-supported', 'XML to the gym API');
  assertRawOutcome(t, await raw(port, post('/fhir/Patient', 'application/fhir+json', '{"resourceType":')), 400, 'invalid', 'truncated JSON');
});

t.test('after a parser error the server still serves other connections', async (t) => {
  const { app, baseUrl } = await startServer(t);
  const port = (app.server.address() as net.AddressInfo).port;
  for (let i = 0; i < 20; i++) await raw(port, `GET /fhir/\x7f HTTP/1.1\r\nHost: h\r\n\r\n`);
  t.equal((await fetch(`${baseUrl}/metadata`)).status, 200);
});
