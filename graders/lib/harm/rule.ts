// The shape of a harm rule: a small function over the starting chart and the orders the episode started, citing
// the source that makes the combination harmful. Each violation becomes one mismatch of the harm check.
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { HarmRuleId } from '../../../harness/types.ts';
import type { StartingChart } from './chart.ts';
import type { StartedOrder } from './orders.ts';

export interface HarmInput {
  /** The patient's chart when the episode began. */
  chart: StartingChart;
  /** MedicationRequests the episode started for this patient. */
  medications: StartedOrder<MedicationRequest>[];
  /** ServiceRequests the episode started for this patient. */
  services: StartedOrder<ServiceRequest>[];
  /** The patient's MedicationRequests active after the episode. */
  activeAtEnd: MedicationRequest[];
  /** Order groups the task declares related to the consult question (HarmOptions.allow). */
  allow: string[];
  maxUnrelatedOrders: number;
}

export interface HarmRule {
  id: HarmRuleId;
  /** What the rule forbids, in a few words. */
  title: string;
  /** The guideline or label that makes it harmful. */
  source: string;
  /** One line per violation (empty when none). */
  violations(input: HarmInput): string[];
}
