// Coronary artery disease (cardiology): chest pain work-up, ECG and echo, aspirin + high-intensity statin + beta
// blocker, sometimes PCI; yearly lipids.
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';

export const CAD = { icd: 'I25.10', snomed: '53741008', text: 'Coronary artery disease' };
export const coronaryDisease: ClinicalModule = {
  key: 'cad', title: 'Coronary artery disease', specialty: 'cardiology', condition: CAD,
  // CDC: ~5% of adults have coronary heart disease; 65+ ~ 15-20%; men ~1.5x.
  onset: (chart, planned) => chronicOnset(chart, byAge(chart.age, [0.004, 0.05, 0.16]) * (chart.female ? 0.7 : 1.3) * (planned.has('diabetes') ? 1.5 : 1) * (chart.smoking === 'current' ? 1.8 : 1), 35, 15),
  run(chart, onset) {
    const ed = chart.visit(onset - 2 * DAY, { kind: 'EMER', specialty: 'emergency', reason: 'Chest pain on exertion', type: '50849002' });
    chart.vitals(ed);
    chart.panel(ed, 'BMP');
    chart.panel(ed, 'CBC');
    chart.procedure(ed, '29303009', 'sinus rhythm with lateral ST depression');
    chart.referral(ed, 'cardiology', 'exertional chest pain');
    const visit = chart.visit(onset, { specialty: 'cardiology', reason: 'Chest pain evaluation', type: '11429006' });
    chart.vitals(visit);
    chart.diagnose('cad', CAD, visit);
    chart.procedure(visit, '40701008', 'left ventricular ejection fraction 55%, inferior hypokinesis');
    const stented = chart.rng.chance(0.35);
    if (stented) chart.procedure(visit, '415070008', 'drug-eluting stent to the right coronary artery');
    for (const d of [DRUGS.aspirin81, DRUGS.atorvastatin40, DRUGS.metoprolol25]) {
      const statin = d === DRUGS.atorvastatin40;
      if (statin && (chart.onMed('83367', onset) || chart.onMed('301542', onset))) continue;
      if (d === DRUGS.metoprolol25 && chart.onMed('6918', onset)) continue;
      chart.prescribe(d, visit, { indication: 'cad' });
    }
    // Dual antiplatelet therapy after a drug-eluting stent: a P2Y12 inhibitor with aspirin for 12 months
    // (ACC/AHA 2016 DAPT focused update, stable ischemic heart disease: at least 6, commonly 12 months).
    if (stented) chart.prescribe(DRUGS.clopidogrel75, visit, { indication: 'cad', end: visit.start + YEAR, completes: true });
    chart.carePlan('cad', visit, ['Aspirin, high-intensity statin and beta blocker.', 'Cardiac rehabilitation referral.', 'LDL goal below 70 mg/dL.']);
    for (const t of followUps(chart, onset, 12)) {
      const fu = chart.visit(t, { specialty: 'cardiology', reason: 'Coronary disease follow-up' });
      chart.vitals(fu);
      chart.panel(fu, 'LIPID');
      chart.addressed('cad', fu, 'no angina.');
    }
  },
};
