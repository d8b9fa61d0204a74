// Our own code system for deliberately planted errors (issue 16): a resource carrying a meta.tag from it is a labelled
// trap the generator wrote on purpose, at a rate recorded in the dataset metadata, never an accident.
import type { CodeTable } from './types.ts';

export const PLANTED_ERROR: CodeTable = {
  system: 'http://ehr-gym.example/fhir/CodeSystem/planted-error',
  title: 'ehr-gym planted errors',
  concepts: {
    // The same ingredient ordered by a second prescriber and both orders left active (a reconciliation trap).
    'duplicate-order': 'Planted error: duplicate order of one ingredient by two prescribers',
  },
};
