// The runner's grader reads a perturbed session's FHIR base too: API faults injected for the agent
// (server/gym/perturbations.ts) must not fail the grading, so its reads retry them.

/**
 * A fetch that retries the 429 and 503 answers injected by a fault perturbation (waiting their Retry-After, at most
 * 2 s), for the runner's grader: faults perturb the agent's requests, never the grading of the episode.
 */
export function retryInjectedFaults(fetch: typeof globalThis.fetch, attempts = 20): typeof globalThis.fetch {
  return async (input, init) => {
    for (let i = 1; ; i++) {
      const response = await fetch(input, init);
      if ((response.status !== 429 && response.status !== 503) || i >= attempts) return response;
      const wait = Math.min(Number(response.headers.get('retry-after')) || 0, 2) * 1000;
      await response.arrayBuffer();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}
