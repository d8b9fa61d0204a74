// CodeSystem/$subsumes (FHIR R4 4.7.16.2): the is-a relation between codeA and codeB.
import type { Operation } from './registry.ts';
import { OperationInput, parameters } from './terminology-params.ts';
import type { CodeSystem } from '@medplum/fhirtypes';
import { badRequest, notFound } from '../../resources/outcome.ts';
import { terminologyOf } from './terminology-stored.ts';

export const subsumesOperation: Operation = {
  name: 'subsumes',
  levels: ['type', 'instance'],
  types: ['CodeSystem'],
  readOnly: true,
  documentation: 'Whether codeA subsumes codeB (equivalent, subsumes, subsumed-by, not-subsumed)',
  handler(req, target) {
    const terminology = terminologyOf(req);
    const input = new OperationInput(req);
    const a = input.coding('codingA');
    const b = input.coding('codingB');
    if (a?.system && b?.system && a.system !== b.system) throw badRequest('codingA and codingB must be from the same system');
    let system = input.string('system') ?? a?.system ?? b?.system;
    if (!system && target.id) {
      system = (req.repo.readLive('CodeSystem', target.id) as CodeSystem | undefined)?.url
        ?? [...terminology.index.codeSystems.values()].find((c) => c.resource?.id === target.id)?.url;
      if (!system) throw notFound(`CodeSystem/${target.id} is not known`);
    }
    const outcome = terminology.subsumes(system, input.string('codeA') ?? a?.code, input.string('codeB') ?? b?.code);
    return { status: 200, body: parameters({ name: 'outcome', valueCode: outcome }) };
  },
};
