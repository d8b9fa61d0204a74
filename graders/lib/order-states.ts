// The patient's medication orders in the three states a grader compares: active when the episode began (the chart
// the agent was asked about), active at the end (what it left), and the ones it created. Graders that judge a change
// of therapy (titrate, stop, switch, add) all start from these.
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { FhirClient } from '../../contracts/fhir-client.ts';
import type { ResourceChange } from '../../contracts/gym-api.ts';
import { createdResources } from './changes.ts';
import { asAtStart } from './harm/chart.ts';
import type { AuditEntry } from '../../contracts/gym-api.ts';
import { fetchedAll } from './retrieval.ts';
import type { Match } from './match.ts';

export interface MedicationOrderStates {
  /** Active when the episode began: changed orders as they were before, deleted ones included. */
  atStart: MedicationRequest[];
  /** Active at the end of the episode. */
  atEnd: MedicationRequest[];
  /** Created by the episode, any status. */
  created: MedicationRequest[];
}

export async function medicationOrderStates({ fhir, patient, changes }: { fhir: FhirClient; patient: string; changes: ResourceChange[] }): Promise<MedicationOrderStates> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return {
    atStart: asAtStart(all, changes, 'MedicationRequest', patient).filter((o) => o.status === 'active'),
    atEnd: all.filter((o) => o.status === 'active'),
    created: createdResources<MedicationRequest>(changes, 'MedicationRequest'),
  };
}

/** The medication review read the whole list: every order active when the episode began was returned by a read or a
 * search (a reconciliation or interaction review that skips one cannot have judged it). */
export async function fetchedActiveOrders(ctx: { fhir: FhirClient; patient: string; changes: ResourceChange[]; log: AuditEntry[] }): Promise<Match> {
  const start = (await medicationOrderStates(ctx)).atStart;
  return fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'active medication order');
}
