// Shared set-up for the server tests: the real app (real SQLite, real validator) reached two ways - through
// Fastify's inject() and through fhir-kit-client over a real socket - plus assertions every error reply must meet.
import type { Test } from 'tap';
import { Client } from 'fhir-kit-client';
import type { OperationOutcome, Resource } from '@medplum/fhirtypes';
import { buildApp, type AppOptions, type BuiltApp } from '../../server/app.ts';

export const FHIR_JSON_UTF8 = 'application/fhir+json; charset=utf-8';

/**
 * fhir-kit-client with its promise results loosened from its own FhirResource union to `any`, so tests can name
 * the @medplum/fhirtypes type they expect (the two type libraries do not overlap).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type KitClient = { [K in keyof Client]: Client[K] extends (...args: infer A) => Promise<unknown> ? (...args: A) => Promise<any> : Client[K] };

export interface TestServer extends BuiltApp {
  /** Absolute FHIR base of the listening server, no trailing slash. */
  baseUrl: string;
  /** fhir-kit-client on `baseUrl`. */
  client: KitClient;
  /** fhir-kit-client on `baseUrl + '/'` (the MedAgentBench habit of a trailing-slash base). */
  slashClient: KitClient;
}

/** Build the app, listen on an ephemeral loopback port, close it when the test ends. */
export async function startServer(t: Test, options: AppOptions = {}): Promise<TestServer> {
  const built = buildApp(options);
  t.teardown(() => built.app.close());
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `${address}/fhir`;
  const client = new Client({ baseUrl }) as KitClient;
  const slashClient = new Client({ baseUrl: `${baseUrl}/` }) as KitClient;
  return { ...built, baseUrl, client, slashClient };
}

/** Build the app for inject() only, closed when the test ends. */
export function injectApp(t: Test, options: AppOptions = {}): BuiltApp {
  const built = buildApp(options);
  t.teardown(() => built.app.close());
  return built;
}

export interface Reply {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Parsed body of an inject() reply. */
export function bodyOf<T = Record<string, unknown>>(res: Reply): T {
  return JSON.parse(res.body) as T;
}

/**
 * An error reply as FHIR R4 3.1.0.4 requires: the status, the FHIR JSON content type, and an OperationOutcome
 * body with at least one error issue (of `code`, when given).
 */
export function assertOutcome(t: Test, res: Reply, status: number, code?: string): OperationOutcome {
  t.equal(res.statusCode, status, `status ${status}`, { body: res.body.slice(0, 500) });
  t.equal(res.headers['content-type'], FHIR_JSON_UTF8, 'error content type');
  const oo = bodyOf<OperationOutcome>(res);
  t.equal(oo.resourceType, 'OperationOutcome', 'error body is an OperationOutcome');
  t.ok(oo.issue?.some((i) => i.severity === 'error' || i.severity === 'fatal'), 'has an error issue');
  if (code) t.ok(oo.issue?.some((i) => i.code === code), `has an issue with code ${code}`);
  return oo;
}

/** What fhir-kit-client throws for a non-2xx reply: the status and the parsed body. */
export interface ClientFailure {
  status: number;
  data: OperationOutcome;
}

/** Await a client call that must fail; returns its status and body (fails the test if it succeeded). */
export async function clientFailure(t: Test, call: Promise<unknown>): Promise<ClientFailure> {
  try {
    const value = await call;
    t.fail(`expected the call to fail, got ${JSON.stringify(value).slice(0, 200)}`);
    return { status: 0, data: { resourceType: 'OperationOutcome', issue: [] } };
  } catch (err) {
    const response = (err as { response?: ClientFailure }).response;
    if (!response) throw err;
    return response;
  }
}

/** Assert a client failure carries the status and an OperationOutcome. */
export async function assertClientOutcome(t: Test, call: Promise<unknown>, status: number, code?: string): Promise<OperationOutcome> {
  const failure = await clientFailure(t, call);
  t.equal(failure.status, status, `client sees status ${status}`);
  t.equal(failure.data?.resourceType, 'OperationOutcome', 'client sees an OperationOutcome');
  if (code) t.ok(failure.data.issue?.some((i) => i.code === code), `issue code ${code}`);
  return failure.data;
}

/** The HTTP response behind a resource fhir-kit-client returned (headers, status). */
export function responseOf(resource: unknown): Response {
  const { response } = Client.httpFor(resource as never);
  if (!response) throw new Error('no HTTP response attached to the client result');
  return response;
}

export const patientBody = (extra: Record<string, unknown> = {}): Resource =>
  ({ resourceType: 'Patient', name: [{ family: 'Chalmers', given: ['Peter'] }], gender: 'male', birthDate: '1974-12-25', ...extra }) as Resource;

export const observationBody = (patientId: string, extra: Record<string, unknown> = {}): Resource =>
  ({
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '2823-3', display: 'Potassium' }] },
    subject: { reference: `Patient/${patientId}` },
    valueQuantity: { value: 4.1, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
    ...extra,
  }) as Resource;

export const JSON_HEADERS = { 'content-type': 'application/fhir+json' };
export const PATCH_HEADERS = { 'content-type': 'application/json-patch+json' };

/** The `W/"n"` ETag of a version. */
export const weakETag = (version: number | string) => `W/"${version}"`;

