// A task fixture: a transaction Bundle applied into a session's overlay when the session is created or reset,
// through the same FHIR router as any client's transaction (FHIR R4 3.1.0.11).
import type { Bundle } from '@medplum/fhirtypes';
import type { Repository } from '../../resources/storage/repository.ts';
import type { ServerContext } from '../fhir-request.ts';
import { route } from '../router.ts';
import { badRequest, FhirError, issue } from '../../resources/outcome.ts';

export function assertFixtureShape(fixture: unknown): asserts fixture is Bundle {
  if (!fixture || typeof fixture !== 'object' || Array.isArray(fixture)) throw badRequest('fixture must be a Bundle', ['fixture']);
  const bundle = fixture as Bundle;
  if (bundle.resourceType !== 'Bundle' || bundle.type !== 'transaction') {
    throw badRequest("fixture must be a Bundle of type 'transaction'", ['fixture']);
  }
}

/** Apply the fixture into the repository's sandbox; a rejected fixture is a 400 carrying the transaction's issues. */
export function applyFixture(repo: Repository, context: ServerContext, fixture: Bundle, baseUrl: string): void {
  try {
    route({
      method: 'POST', path: '', query: [], body: fixture, contentType: 'application/fhir+json',
      headers: { prefer: 'return=minimal' }, baseUrl, repo, context,
    });
  } catch (err) {
    if (err instanceof FhirError) {
      throw new FhirError(err.status >= 500 ? err.status : 400, [
        issue('error', 'invalid', `The fixture Bundle was rejected (${err.status})`, ['fixture']),
        ...(err.outcome.issue ?? []),
      ]);
    }
    throw err;
  }
}
