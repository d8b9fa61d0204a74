// The server's public root URL, the one every absolute URL it answers with starts from (fhirBaseUrl, Location,
// Bundle fullUrl and links). Configured (`--base-url`, EHR_GYM_BASE_URL) or else the address the server listens on;
// never the request's Host header, which the client chooses (a Host of evil.example must not come back as a link).
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';

/** The environment variable `ehr-gym serve` reads the public base URL from when `--base-url` is not given. */
export const BASE_URL_ENV = 'EHR_GYM_BASE_URL';

/** The server root, no trailing slash: `https://gym.example.org` or `http://127.0.0.1:8080` (the FHIR base adds /fhir). */
export type PublicRoot = () => string;

/**
 * A configured base URL as the server root. Either the root or the FHIR base may be given (`https://h/ehr` or
 * `https://h/ehr/fhir`); a trailing `/fhir` is taken off so the gym API and the FHIR base share it. Throws on
 * anything that is not an absolute http(s) URL without credentials, query or fragment.
 */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`The base URL '${value}' is not an absolute URL (e.g. https://gym.example.org)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`The base URL '${value}' must be http or https`);
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(`The base URL '${value}' must not carry credentials, a query or a fragment`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/fhir$/, '')}`;
}

/** Standing in for an address when nothing listens (requests through inject() only). */
const NOT_LISTENING = 'http://localhost:80';

/**
 * The configured root, or the listening address (`http://127.0.0.1:8080`). A server listening on every interface
 * (0.0.0.0, ::) has no one address clients use: it answers with localhost, and `ehr-gym serve` says to set a base URL.
 */
export function publicRoot(app: FastifyInstance, configured: string | undefined): PublicRoot {
  if (configured !== undefined) {
    const root = parseBaseUrl(configured);
    return () => root;
  }
  return () => {
    const address = app.server.address();
    if (!address || typeof address === 'string') return NOT_LISTENING;
    return `http://${hostOf(address)}:${address.port}`;
  };
}

function hostOf(address: AddressInfo): string {
  if (isUnspecified(address.address)) return 'localhost';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

export function isUnspecified(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}
