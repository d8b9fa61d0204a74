// Hyperlipidemia (cardiology / primary care): lipid panel, statin (ACC/AHA 2018), LDL falls on treatment.
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, firstTolerated, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { YEAR } from '../time.ts';

export const HYPERLIPIDEMIA = { icd: 'E78.5', snomed: '55822004', text: 'Hyperlipidemia' };

export const hyperlipidemia: ClinicalModule = {
  key: 'hyperlipidemia', title: 'Hyperlipidemia', specialty: 'primaryCare', condition: HYPERLIPIDEMIA,
  // Diagnosed high cholesterol (CDC: ~28% of adults told they have high cholesterol; rises with age).
  onset: (chart, planned) => chronicOnset(chart, byAge(chart.age, [0.1, 0.33, 0.48]) * (planned.has('diabetes') ? 1.5 : 1), 25, 15),
  physiology(chart, onset, rng) {
    const excess = rng.between(45, 90);
    chart.modify('LDL', (t, v) => (t >= onset - 2 * YEAR ? v + excess : v));
    chart.modify('CHOL', (t, v) => (t >= onset - 2 * YEAR ? v + excess * 1.1 : v));
    chart.modify('TRIG', (t, v) => (t >= onset - 2 * YEAR ? v + 40 : v));
  },
  run(chart, onset) {
    // The draws the physiology phase now takes from its own stream, still taken here: the rest of this chart's
    // stream stays where it was, so the charts tasks bind to do not move.
    chart.rng.between(45, 90);
    const visit = chart.visit(onset, { reason: 'Cholesterol screening results' });
    chart.vitals(visit);
    chart.panel(visit, 'LIPID', { reliable: true });
    chart.diagnose('hyperlipidemia', HYPERLIPIDEMIA, visit);
    const statin = firstTolerated(chart, DRUGS.atorvastatin20, DRUGS.rosuvastatin10);
    const course = statin ? chart.prescribe(statin, visit, { indication: 'hyperlipidemia' }) : undefined;
    chart.carePlan('hyperlipidemia', visit, ['Moderate-intensity statin.', 'Heart-healthy diet.', 'Repeat lipid panel in 3 months, then yearly.']);
    for (const t of followUps(chart, onset, 12)) {
      const fu = chart.visit(t, { reason: 'Lipid follow-up' });
      chart.vitals(fu);
      chart.panel(fu, 'LIPID');
      if (chart.rng.chance(0.4)) chart.panel(fu, 'CMP');
      chart.addressed('hyperlipidemia', fu, course ? `on ${course.drug.product}.` : 'diet only.');
    }
  },
};
