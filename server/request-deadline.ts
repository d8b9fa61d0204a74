// The time budget of one request (ServerSettings.requestTimeBudgetMs), started by the first interaction that checks
// it and kept on the request, so batch entries and nested searches share their Bundle's budget.
import type { FhirRequest } from './fhir-request.ts';
import { Deadline } from '../resources/deadline.ts';

export function deadlineOf(req: FhirRequest): Deadline {
  req.deadline ??= new Deadline(req.context.settings.requestTimeBudgetMs);
  return req.deadline;
}
