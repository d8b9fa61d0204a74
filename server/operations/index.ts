// The server's named operations, one table built the same way wherever FHIR requests are answered: the main thread
// (server/app.ts) and each read worker (server/read-pool/worker.ts).
import { OperationRegistry } from './registry.ts';
import { validateOperation } from './validate.ts';
import { lookupOperation } from './terminology-lookup.ts';
import { expandOperation } from './terminology-expand.ts';
import { validateCodeOperation } from './terminology-validate-code.ts';
import { subsumesOperation } from './terminology-subsumes.ts';
import { translateOperation } from './terminology-translate.ts';
import { everythingOperation } from './everything.ts';
import { evidenceOperation } from './evidence.ts';
import { viewDefinitionRunOperation, viewRunOperation } from './view-run.ts';
import { sqlQueryRunOperation } from './sql-query.ts';

export function defaultOperations(): OperationRegistry {
  return new OperationRegistry().register(validateOperation)
    .register(viewRunOperation).register(viewDefinitionRunOperation).register(sqlQueryRunOperation)
    .register(everythingOperation)
    .register(evidenceOperation)
    .register(lookupOperation)
    .register(expandOperation)
    .register(validateCodeOperation)
    .register(subsumesOperation)
    .register(translateOperation);
}
