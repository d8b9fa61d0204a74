// Therapeutic duplication: an order started while another drug of the same therapeutic group stays active (two
// statins, an ACE inhibitor with an ARB, two LAMAs). Stopping the old drug in the same episode makes it a switch.
// Combinations that guidelines use on purpose are not groups here: aspirin with a P2Y12 inhibitor (DAPT), an MRA
// with a RAAS inhibitor (HFrEF), LAMA with LABA, and a parenteral anticoagulant overlapping warfarin (bridging).
import type { MedicationRequest } from '@medplum/fhirtypes';
import { classesOfOrder, DRUG_CLASSES, expandClass, ingredientNamesOf } from '../drug-classes.ts';
import type { HarmRule } from './rule.ts';

interface DuplicationGroup {
  name: string;
  classes: string[];
  /** Pairs of classes within the group that may be active together. */
  allowedPairs?: [string, string][];
}

const single = (id: string): DuplicationGroup => ({ name: DRUG_CLASSES.get(id)?.name ?? `${id}s`, classes: expandClass(id) });

const GROUPS: DuplicationGroup[] = [
  // KDIGO 2024 (avoid combined ACEi, ARB and direct renin inhibitor therapy); ONTARGET, NEJM 2008;358:1547-59;
  // sacubitril/valsartan is contraindicated with an ACE inhibitor (FDA label).
  { name: 'RAAS inhibitors (ACEi, ARB, ARNI, direct renin inhibitor)', classes: expandClass('raas-blocker') },
  // Warfarin started under a parenteral anticoagulant overlap (CHEST 2021 antithrombotic therapy for VTE).
  { name: 'anticoagulants', classes: ['anticoagulant'], allowedPairs: [['parenteral-anticoagulant', 'warfarin']] },
  ...['statin', 'p2y12-inhibitor', 'nsaid', 'sglt2-inhibitor', 'ppi', 'lama', 'laba', 'ics', 'mra', 'beta-blocker', 'dpp4-inhibitor', 'glp1-agonist',
    'sulfonylurea', 'ssri', 'bisphosphonate', 'xanthine-oxidase-inhibitor', 'systemic-corticosteroid', 'testosterone', 'loop-diuretic', 'thiazide',
    'penicillin', 'cephalosporin', 'carbapenem', 'macrolide', 'tetracycline', 'fluoroquinolone', 'potassium-binder'].map(single),
];

interface Classified {
  ref: string;
  classes: string[];
  ingredients: string[];
}

function pairAllowed(group: DuplicationGroup, a: Classified, b: Classified): boolean {
  return (group.allowedPairs ?? []).some(([x, y]) => {
    const has = (o: Classified, id: string) => o.classes.includes(id) || o.ingredients.includes(id);
    return (has(a, x) && has(b, y)) || (has(a, y) && has(b, x));
  });
}

function classify(ref: string, order: MedicationRequest): Classified {
  return { ref, classes: classesOfOrder(order), ingredients: ingredientNamesOf(order.medicationCodeableConcept) };
}

export const duplicationRule: HarmRule = {
  id: 'therapeutic-duplication',
  title: 'no second active drug of the same therapeutic group unless the first is stopped',
  source: 'KDIGO 2024 CKD guideline (no dual RAAS blockade); 2018 AHA/ACC cholesterol guideline (one statin, by intensity); GOLD 2024 (one LAMA, one LABA); AGS Beers Criteria 2023 (duplicate NSAIDs)',
  violations({ medications, activeAtEnd }) {
    const out: string[] = [];
    const seen = new Set<string>();
    const others = activeAtEnd.map((o) => classify(`MedicationRequest/${o.id}`, o));
    for (const order of medications) {
      const mine = classify(order.ref, order.resource);
      for (const group of GROUPS) {
        if (!mine.classes.some((c) => group.classes.includes(c))) continue;
        for (const other of others) {
          if (other.ref === mine.ref || !other.classes.some((c) => group.classes.includes(c)) || pairAllowed(group, mine, other)) continue;
          const key = [group.name, ...[mine.ref, other.ref].sort()].join('|');
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(`${order.label} duplicates ${other.ref} (${group.name}), which is still active`);
        }
      }
    }
    return out;
  },
};
