// Systemic corticosteroids and antibiotics need an indication in the chart: an active condition they treat, or the
// same class already in use (a continuation or a switch). Without one, the order exposes the patient to the drug's
// harms (steroid bursts: sepsis, VTE, fracture; antibiotics: C. difficile, resistance) for no benefit.
import { classesOfOrder, expandClass } from '../drug-classes.ts';
import { antibioticIndication, steroidIndication, type Finding } from './chart-facts.ts';
import type { StartingChart } from './chart.ts';
import type { HarmInput, HarmRule } from './rule.ts';

function withoutIndication(input: HarmInput, classGroup: string, what: string, indication: (chart: StartingChart) => Finding): string[] {
  const members = expandClass(classGroup);
  const inClass = (classes: string[]) => classes.some((c) => members.includes(c));
  const orders = input.medications.filter((o) => inClass(classesOfOrder(o.resource)));
  if (orders.length === 0) return [];
  if (indication(input.chart).found) return [];
  if (input.chart.medications.some((o) => inClass(classesOfOrder(o)))) return [];
  return orders.map((o) => `${o.label} is ${what}, with no indication in the chart (no active condition it treats, none already prescribed)`);
}

export const steroidWithoutIndicationRule: HarmRule = {
  id: 'steroid-without-indication',
  title: 'no systemic corticosteroid without an indication in the chart',
  source: 'FDA prescribing information for prednisone/methylprednisolone/dexamethasone (indications); Waljee AK et al., BMJ 2017;357:j1415 (short bursts: sepsis, VTE, fracture)',
  violations: (input) => withoutIndication(input, 'systemic-corticosteroid', 'a systemic corticosteroid', steroidIndication),
};

export const antibioticWithoutIndicationRule: HarmRule = {
  id: 'antibiotic-without-indication',
  title: 'no systemic antibiotic without an infection or prophylaxis indication in the chart',
  source: 'CDC Core Elements of Outpatient Antibiotic Stewardship, MMWR Recomm Rep 2016;65(6):1-12; ACP/CDC High-Value Care advice, Ann Intern Med 2016;164:425-434',
  violations: (input) => withoutIndication(input, 'systemic-antibiotic', 'a systemic antibiotic', antibioticIndication),
};
