// The contract between the FHIR interactions and the search engine.
import type { Bundle } from '@medplum/fhirtypes';
import type { Repository } from '../storage/repository.ts';
import type { ResourceIndexer } from '../storage/store.ts';
import type { Deadline } from '../deadline.ts';

/** Query parameters in order, repeats kept. */
export type SearchQuery = [name: string, value: string][];

export interface SearchContext {
  repo: Repository;
  /** Absolute base URL of the FHIR endpoint (no trailing slash): Bundle links and fullUrls are built on it. */
  baseUrl: string;
  /** `Prefer: handling=strict`: unknown or unsupported parameters are a 400 instead of a reported warning. */
  strict: boolean;
  /** Path of the search below the base, e.g. `Patient` or `Patient/_search`, for Bundle links. */
  path: string;
  /** The server's bounds (defaultSearchLimits when absent). */
  limits?: SearchLimits;
  /** The request's time budget, checked while results and includes are assembled (none when absent). */
  deadline?: Deadline;
}

/** Bounds on the work one search asks for (README "Limits"); the server settings carry them. */
export interface SearchLimits {
  /** Page size when `_count` is absent. */
  defaultPageSize: number;
  /** Largest page a search, $everything or history returns (a larger `_count` is clamped to it). */
  maxPageSize: number;
  /** `_include`/`_revinclude` rounds: 1 = the matches' references only; each `:iterate` round goes one further. */
  maxIncludeDepth: number;
  /** Most resources `_include`/`_revinclude` add to one page; past it the Bundle says what was cut. */
  maxIncludedResources: number;
  /** Type-level `Patient/$everything` runs only while the sandbox holds at most this many patients. */
  maxEverythingPatients: number;
}

export const defaultSearchLimits: SearchLimits = {
  defaultPageSize: 50,
  maxPageSize: 10000,
  maxIncludeDepth: 3,
  maxIncludedResources: 1000,
  maxEverythingPatients: 10,
};

export interface SearchService {
  /** Keeps the search index tables in step with every resource write. */
  readonly indexer: ResourceIndexer;
  /** A searchset Bundle for `GET [type]?query` (type undefined: system search with `_type`). */
  search(ctx: SearchContext, type: string | undefined, query: SearchQuery): Bundle;
  /**
   * The ids matching a conditional create/update/delete/reference query on `type`, evaluated strictly
   * (an unknown parameter is an error, never silently ignored).
   */
  match(repo: Repository, type: string, query: SearchQuery): string[];
  /**
   * `Patient/[id]/$everything` (patientId set) or `Patient/$everything`: a searchset of the patient(s), their
   * compartment and what it references; honours `_since`, `_type`, `_count`/`_offset`.
   */
  everything(ctx: SearchContext, patientId: string | undefined, query: SearchQuery): Bundle;
  /** The search parameters supported for a type, for the CapabilityStatement. */
  capabilities(type: string): { name: string; type: string; definition?: string; documentation?: string }[];
}
