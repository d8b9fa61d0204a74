// OperationOutcome construction and the one mapping from failures to HTTP status (FHIR R4 3.1.0.4 "HTTP status codes").
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';

export type IssueSeverity = OperationOutcomeIssue['severity'];
export type IssueCode = OperationOutcomeIssue['code'];

export function issue(
  severity: IssueSeverity,
  code: IssueCode,
  diagnostics: string,
  expression?: string[],
): OperationOutcomeIssue {
  const out: OperationOutcomeIssue = { severity, code, diagnostics };
  if (expression && expression.length > 0) out.expression = expression;
  return out;
}

export function outcome(...issues: OperationOutcomeIssue[]): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: issues };
}

export function informational(diagnostics: string): OperationOutcome {
  return outcome(issue('information', 'informational', diagnostics));
}

/** A failure that becomes an OperationOutcome response. Raised anywhere, rendered in one place. */
export class FhirError extends Error {
  readonly status: number;
  readonly outcome: OperationOutcome;
  readonly headers: Record<string, string>;
  constructor(status: number, outcomeOrIssues: OperationOutcome | OperationOutcomeIssue[], headers: Record<string, string> = {}) {
    const oo = Array.isArray(outcomeOrIssues) ? outcome(...outcomeOrIssues) : outcomeOrIssues;
    super(oo.issue?.map((i) => i.diagnostics).join('; ') ?? 'error');
    this.status = status;
    this.outcome = oo;
    this.headers = headers;
  }
}

const fail = (status: number, code: IssueCode) => (diagnostics: string, expression?: string[]) =>
  new FhirError(status, [issue('error', code, diagnostics, expression)]);

// Ready-made failures, one per status the spec assigns.
export const badRequest = fail(400, 'invalid');
export const invalidParameter = fail(400, 'processing');
export const notFound = fail(404, 'not-found');
export const methodNotAllowed = fail(405, 'not-supported');
export const notAcceptable = fail(406, 'not-supported');
export const conflict = fail(409, 'conflict');
export const gone = fail(410, 'deleted');
export const preconditionFailed = fail(412, 'conflict');
export const tooLarge = fail(413, 'too-costly');
export const unsupportedMediaType = fail(415, 'not-supported');
export const unprocessable = fail(422, 'processing');
/** Work the server refuses to finish (a time budget or size bound): 422 with FHIR's `too-costly` code. */
export const tooCostly = fail(422, 'too-costly');
export const tooManyRequests = fail(429, 'throttled');
export const multipleMatches = fail(412, 'multiple-matches');
export const notSupported = fail(501, 'not-supported');

export function isOperationOutcomeSuccess(oo: OperationOutcome): boolean {
  return !(oo.issue ?? []).some((i) => i.severity === 'error' || i.severity === 'fatal');
}
