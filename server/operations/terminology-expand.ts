// ValueSet/$expand (FHIR R4 4.9.18.1): by id, url (registered or implicit, e.g. http://loinc.org/vs) or inline
// ValueSet; `filter` is a word-prefix search over displays and synonyms, best matches first; count/offset page.
import type { Operation } from './registry.ts';
import { OperationInput, targetValueSet } from './terminology-params.ts';
import { nonNegativeInteger } from '../../resources/terminology/service.ts';
import { deadlineOf } from '../request-deadline.ts';
import { terminologyOf } from './terminology-stored.ts';

export const expandOperation: Operation = {
  name: 'expand',
  levels: ['type', 'instance'],
  types: ['ValueSet'],
  readOnly: true,
  documentation: 'Expand a ValueSet (url, id or inline); filter = word-prefix text search; count/offset paging',
  handler(req, target) {
    const deadline = deadlineOf(req);
    const input = new OperationInput(req);
    const valueSet = targetValueSet(req, input, target.id);
    const body = terminologyOf(req).expand(valueSet, {
      filter: input.string('filter'),
      count: nonNegativeInteger('count', input.string('count')),
      offset: nonNegativeInteger('offset', input.string('offset')),
      includeDesignations: input.boolean('includeDesignations'),
      activeOnly: input.boolean('activeOnly'),
      deadline,
    });
    return { status: 200, body };
  },
};
