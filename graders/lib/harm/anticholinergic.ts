// Strongly anticholinergic drugs in dementia or cognitive impairment: they worsen cognition and oppose
// cholinesterase inhibitors.
import { dementia } from './chart-facts.ts';
import { classInConditionRule, type HarmRule } from './rule.ts';

export const anticholinergicInDementiaRule: HarmRule = classInConditionRule({
  id: 'anticholinergic-in-dementia',
  title: 'no strongly anticholinergic drug in dementia, cognitive impairment or delirium',
  source: 'AGS Beers Criteria 2023, Table 3 (dementia or cognitive impairment, delirium: avoid anticholinergics) and Table 7',
  drugClass: 'strong-anticholinergic',
  what: 'strongly anticholinergic',
  condition: dementia,
  context: (evidence) => `with ${evidence}`,
});
