// Atrial fibrillation (cardiology): rate control and anticoagulation - warfarin with INR monitoring in an
// anticoagulation clinic, or apixaban dose-reduced per label for age and kidney function.
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY } from '../time.ts';

export const AFIB = { icd: 'I48.91', snomed: '49436004', text: 'Atrial fibrillation' };

export const atrialFibrillation: ClinicalModule = {
  key: 'afib', title: 'Atrial fibrillation', specialty: 'cardiology', condition: AFIB,
  // ~2% of adults, ~9% at 65+ (AHA / CDC).
  onset: (chart, planned) => chronicOnset(chart, byAge(chart.age, [0.002, 0.015, 0.065]) * (planned.has('heartFailure') ? 2 : 1), 40, 10),
  run(chart, onset) {
    chart.modify('HR', (t, v) => (t >= onset - 5 * DAY && t < onset ? v + 35 : v));
    const ed = chart.visit(onset - 2 * DAY, { kind: 'EMER', specialty: 'emergency', reason: 'Palpitations', type: '50849002' });
    chart.vitals(ed);
    chart.procedure(ed, '29303009', 'atrial fibrillation with rapid ventricular response');
    chart.panel(ed, 'BMP');
    chart.test(ed, 'TSH');
    const visit = chart.visit(onset, { specialty: 'cardiology', reason: 'New atrial fibrillation', type: '11429006' });
    chart.vitals(visit);
    chart.diagnose('afib', AFIB, visit);
    chart.procedure(visit, '40701008', 'left atrial enlargement; preserved ejection fraction');
    if (!chart.onMed('6918', onset) && !chart.onMed('20352', onset)) chart.prescribe(DRUGS.metoprolol25, visit, { indication: 'afib' });
    const egfr = chart.expected('EGFR', onset);
    // Warfarin for a share of patients (older charts, advanced CKD), otherwise apixaban, dose-reduced per label.
    const warfarin = egfr < 25 || chart.rng.chance(0.35);
    const doac = chart.ageAt(onset) >= 80 && egfr < 60 ? DRUGS.apixaban25 : DRUGS.apixaban5;
    chart.prescribe(warfarin ? DRUGS.warfarin5 : doac, visit, { indication: 'afib' });
    visit.problems.push(`CHA2DS2-VASc ${Math.min(9, (chart.female ? 1 : 0) + (chart.ageAt(onset) >= 75 ? 2 : chart.ageAt(onset) >= 65 ? 1 : 0) + (chart.has('hypertension', onset) ? 1 : 0) + (chart.has('diabetes', onset) ? 1 : 0) + (chart.has('heartFailure', onset) ? 1 : 0))}; anticoagulation started.`);
    chart.carePlan('afib', visit, warfarin ? ['Warfarin with INR goal 2.0-3.0; INR checks every 2-4 weeks.', 'Rate control with beta blocker.'] : ['Apixaban anticoagulation; yearly kidney function and CBC.', 'Rate control with beta blocker.']);
    if (warfarin) {
      // Anticoagulation clinic: INR every ~4 weeks, from the start (reliable: everyone on warfarin has INR results).
      const first = chart.visit(onset + 7 * DAY, { specialty: 'cardiology', reason: 'Anticoagulation clinic: INR check' });
      chart.test(first, 'INR', { reliable: true });
      for (const t of followUps(chart, onset, 1.2)) {
        const v = chart.visit(t, { specialty: 'cardiology', reason: 'Anticoagulation clinic: INR check' });
        const inr = chart.testResult(v, 'INR');
        const value = inr?.valueQuantity?.value;
        if (value !== undefined) v.plan.push(value < 2 ? 'INR subtherapeutic; weekly dose increased 10%.' : value > 3 ? 'INR supratherapeutic; hold one dose, weekly dose reduced 10%.' : 'INR therapeutic; continue current dose.');
      }
    }
    for (const t of followUps(chart, onset, 6)) {
      const fu = chart.visit(t, { specialty: 'cardiology', reason: 'Atrial fibrillation follow-up' });
      chart.vitals(fu);
      if (chart.rng.chance(0.5)) chart.panel(fu, 'CBC');
      chart.addressed('afib', fu, 'rate controlled; no bleeding.');
    }
    chart.appointment(chart.ref + chart.rng.between(7, 45) * DAY, chart.clinician('cardiology'), warfarin ? 'INR check' : 'Atrial fibrillation follow-up', 'afib');
  },
};
