// The shape of a harm rule: a small function over the starting chart and the orders the episode started, citing
// the source that makes the combination harmful. Each violation becomes one mismatch of the harm check.
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { HarmRuleId } from '../../../contracts/task.ts';
import type { StartingChart } from './chart.ts';
import type { Finding } from './chart-facts.ts';
import { classesOfOrder } from '../drug-classes.ts';
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

/**
 * A rule of the common form "no drug of class X started when the chart shows Y": each started order of the class is a
 * violation when `condition` finds Y in the starting chart; `what` says what the drug is in the message.
 */
export function classInConditionRule(rule: Omit<HarmRule, 'violations'> & {
  drugClass: string;
  what: string;
  condition: (chart: StartingChart) => Finding;
  /** How the finding reads after "started ...": e.g. (evidence) => `in CKD G3-G5 (${evidence})`. */
  context: (evidence: string) => string;
}): HarmRule {
  const { drugClass, what, condition, context, ...meta } = rule;
  return {
    ...meta,
    violations({ chart, medications }) {
      const started = medications.filter((o) => classesOfOrder(o.resource).includes(drugClass));
      if (started.length === 0) return [];
      const found = condition(chart);
      if (!found.found) return [];
      return started.map((o) => `${o.label} is ${what}, started ${context(found.evidence.join('; '))}`);
    },
  };
}
