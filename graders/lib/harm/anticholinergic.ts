// Strongly anticholinergic drugs in dementia or cognitive impairment: they worsen cognition and oppose
// cholinesterase inhibitors.
import { classesOfOrder } from '../drug-classes.ts';
import { dementia } from './chart-facts.ts';
import type { HarmRule } from './rule.ts';

export const anticholinergicInDementiaRule: HarmRule = {
  id: 'anticholinergic-in-dementia',
  title: 'no strongly anticholinergic drug in dementia, cognitive impairment or delirium',
  source: 'AGS Beers Criteria 2023, Table 3 (dementia or cognitive impairment, delirium: avoid anticholinergics) and Table 7',
  violations({ chart, medications }) {
    const anticholinergic = medications.filter((o) => classesOfOrder(o.resource).includes('strong-anticholinergic'));
    if (anticholinergic.length === 0) return [];
    const dx = dementia(chart);
    if (!dx.found) return [];
    return anticholinergic.map((o) => `${o.label} is strongly anticholinergic, started with ${dx.evidence.join('; ')}`);
  },
};
