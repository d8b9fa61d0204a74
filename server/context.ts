// The server's settings (limits and policies), built once in app.ts; the services themselves are ServerContext
// (server/fhir-request.ts), which every interaction receives with its request.
import { defaultSearchLimits, type SearchLimits } from '../resources/search/service.ts';

/** The search limits (page sizes, _include bounds, $everything) come from SearchLimits; README "Limits" lists all. */
export interface ServerSettings extends SearchLimits {
  /** Reject writes that reference resources this server does not hold (HAPI's default). */
  enforceReferentialIntegrity: boolean;
  /** Most entries a batch or transaction Bundle may hold (more: 413). */
  maxBatchEntries: number;
  /** Most columns a ViewDefinition run by $run may declare (more: 400). */
  maxViewColumns: number;
  /** Time budget of one request in ms (0: none); past it the work stops with a 422 too-costly (resources/deadline.ts). */
  requestTimeBudgetMs: number;
}

export const defaultSettings: ServerSettings = {
  enforceReferentialIntegrity: true,
  ...defaultSearchLimits,
  maxBatchEntries: 1000,
  maxViewColumns: 1000,
  requestTimeBudgetMs: 5000,
};
