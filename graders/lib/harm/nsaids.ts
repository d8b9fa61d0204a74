// NSAIDs where they harm: in CKD G3-G5 (acute kidney injury, hyperkalemia, faster GFR loss) and together with an
// anticoagulant (bleeding). Low-dose aspirin is no NSAID here (graders/lib/drug-classes.ts).
import { classesOfOrder } from '../drug-classes.ts';
import { ckdStage3Plus } from './chart-facts.ts';
import { classInConditionRule, type HarmRule } from './rule.ts';

export const nsaidInCkdRule: HarmRule = classInConditionRule({
  id: 'nsaid-in-ckd',
  title: 'no systemic NSAID in CKD G3-G5',
  source: 'KDIGO 2024 CKD guideline, chapter 3 (avoid NSAIDs in people with CKD, drug stewardship); AGS Beers Criteria 2023, Table 6 (avoid NSAIDs with CrCl < 30)',
  drugClass: 'nsaid',
  what: 'a systemic NSAID',
  condition: ckdStage3Plus,
  context: (evidence) => `in CKD G3-G5 (${evidence})`,
});

export const nsaidWithAnticoagulantRule: HarmRule = {
  id: 'nsaid-with-anticoagulant',
  title: 'no systemic NSAID together with an anticoagulant',
  source: 'AGS Beers Criteria 2023, Table 2 (NSAIDs: avoid with oral or parenteral anticoagulants); 2023 ACC/AHA/ACCP/HRS atrial fibrillation guideline (bleeding risk: avoid concomitant NSAIDs)',
  violations({ medications, activeAtEnd }) {
    const out: string[] = [];
    const classesAtEnd = activeAtEnd.map((o) => ({ ref: `MedicationRequest/${o.id}`, classes: classesOfOrder(o) }));
    for (const order of medications) {
      const classes = classesOfOrder(order.resource);
      const partner = classes.includes('nsaid') ? 'anticoagulant' : classes.includes('anticoagulant') ? 'nsaid' : undefined;
      if (!partner) continue;
      const others = classesAtEnd.filter((o) => o.ref !== order.ref && o.classes.includes(partner)).map((o) => o.ref);
      if (others.length > 0) out.push(`${order.label} is ${partner === 'anticoagulant' ? 'an NSAID' : 'an anticoagulant'}, active together with ${partner === 'anticoagulant' ? 'the anticoagulant' : 'the NSAID'} ${others.join(', ')}`);
    }
    return out;
  },
};
