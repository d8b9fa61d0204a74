// batch and transaction: POST [base] with a Bundle (FHIR R4 3.1.0.11). PLACEHOLDER: being written.
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { notSupported } from '../../resources/outcome.ts';

export function batchOrTransaction(_req: FhirRequest): FhirResponse {
  throw notSupported('batch/transaction is not implemented yet');
}
