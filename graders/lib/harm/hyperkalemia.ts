// Potassium-raising drugs started in hyperkalemia: potassium supplements, potassium-sparing diuretics, MRAs and new
// RAAS inhibitors. A RAAS inhibitor the patient already took, re-ordered at no higher daily dose, is a continuation
// or a dose reduction, which KDIGO 2024 allows alongside potassium-lowering measures; it is not an add-on.
import type { MedicationRequest } from '@medplum/fhirtypes';
import { classesOfOrder, dailyMg, DRUG_CLASSES, ingredientNamesOf } from '../drug-classes.ts';
import { hyperkalemia } from './chart-facts.ts';
import type { HarmRule } from './rule.ts';

const RAAS_INHIBITORS = ['ace-inhibitor', 'arb', 'arni', 'renin-inhibitor'];
const POTASSIUM_RAISING = ['potassium-supplement', 'potassium-sparing-diuretic', 'mra', ...RAAS_INHIBITORS];

/** The order gives an ingredient the patient was already taking at the start, at no higher daily dose. */
function continuedAtNoHigherDose(order: MedicationRequest, atStart: MedicationRequest[]): boolean {
  const names = ingredientNamesOf(order.medicationCodeableConcept);
  const dose = dailyMg(order);
  if (names.length === 0 || dose === undefined) return false;
  return atStart.some((o) => {
    const before = ingredientNamesOf(o.medicationCodeableConcept);
    const beforeDose = dailyMg(o);
    return names.every((n) => before.includes(n)) && beforeDose !== undefined && dose <= beforeDose + 1e-9;
  });
}

export const hyperkalemiaRule: HarmRule = {
  id: 'hyperkalemia-potassium-raising',
  title: 'no potassium supplement, potassium-sparing diuretic, MRA or new RAAS inhibitor in hyperkalemia',
  source: 'KDIGO 2024 CKD guideline, section 3.10 (hyperkalemia: stop potassium supplements and potassium-sparing drugs; manage RASi-associated hyperkalemia); 2022 AHA/ACC/HFSA heart failure guideline (MRA not with K > 5.0)',
  violations({ chart, medications }) {
    const hk = hyperkalemia(chart);
    if (!hk.found) return [];
    const out: string[] = [];
    for (const order of medications) {
      const classes = classesOfOrder(order.resource).filter((c) => POTASSIUM_RAISING.includes(c));
      if (classes.length === 0) continue;
      if (classes.every((c) => RAAS_INHIBITORS.includes(c)) && continuedAtNoHigherDose(order.resource, chart.medications)) continue;
      out.push(`${order.label}, one of the ${classes.map((c) => DRUG_CLASSES.get(c)!.name).join(' / ')}, was started with hyperkalemia (${hk.evidence.join('; ')})`);
    }
    return out;
  },
};
