// Heart failure with reduced ejection fraction (cardiology): admission for decompensation (NT-proBNP, chest X-ray, echo),
// guideline-directed therapy (beta blocker, ACE inhibitor/ARB, spironolactone, loop diuretic) titrated in follow-up;
// spironolactone stopped for hyperkalemia.
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, firstTolerated, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY } from '../time.ts';

export const HEART_FAILURE = { icd: 'I50.22', snomed: '84114007', text: 'Chronic systolic heart failure' };

export const heartFailure: ClinicalModule = {
  key: 'heartFailure', title: 'Heart failure', specialty: 'cardiology', condition: HEART_FAILURE,
  // AHA 2023 statistics: ~2.3% of adults; 65+ ~7%; more with coronary disease and hypertension.
  onset: (chart, planned) => chronicOnset(chart, byAge(chart.age, [0.002, 0.012, 0.05]) * (planned.has('cad') ? 2.5 : 1) * (planned.has('hypertension') ? 1.4 : 0.8), 40, 8),
  physiology(chart, onset) {
    chart.modify('NTBNP', (t, v) => (t >= onset - 30 * DAY ? v + 900 + chart.rng.between(0, 1500) - (chart.onMed('6918', t) || chart.onMed('20352', t) ? 400 : 0) : v));
    chart.modify('WEIGHT', (t, v) => (t >= onset - 30 * DAY && t < onset + 10 * DAY ? v + 4 : v));
    chart.modify('SPO2', (t, v) => (t >= onset - 5 * DAY && t < onset + 3 * DAY ? v - 5 : v));
  },
  run(chart, onset) {
    chart.flags.add('hf-reduced-ef');
    const admit = chart.visit(onset - 4 * DAY, { kind: 'IMP', specialty: 'internalMedicine', reason: 'Acute decompensated heart failure: dyspnea, orthopnea, edema', days: 4 });
    chart.vitals(admit);
    chart.test(admit, 'NTBNP');
    chart.panel(admit, 'BMP');
    chart.panel(admit, 'CBC');
    chart.imaging(admit, '399208008', { table: 'LOINC', code: '36643-5' }, 'Cardiomegaly with bilateral interstitial edema and small pleural effusions.', 'dyspnea');
    const ef = Math.round(chart.rng.between(20, 38));
    chart.procedure(admit, '40701008', `left ventricular ejection fraction ${ef}%`);
    chart.diagnose('heartFailure', HEART_FAILURE, admit);
    admit.plan.push('IV furosemide diuresis with 4 kg weight loss; transitioned to oral regimen.');
    if (!chart.onMed('4603', onset)) chart.prescribe(DRUGS.furosemide40, admit, { indication: 'heartFailure' });
    const bb = chart.activeCourse('6918', onset);
    if (bb) chart.change(bb, DRUGS.carvedilol625, admit, 'switched to carvedilol for heart failure');
    else chart.prescribe(DRUGS.carvedilol625, admit, { indication: 'heartFailure' });
    if (!chart.onMed('29046', onset) && !chart.onMed('52175', onset)) {
      chart.prescribe(firstTolerated(chart, DRUGS.lisinopril10, DRUGS.losartan50)!, admit, { indication: 'heartFailure' });
    }
    const visit = chart.visit(onset + 10 * DAY, { specialty: 'cardiology', reason: 'Post-discharge heart failure visit', type: '11429006' });
    chart.vitals(visit);
    chart.panel(visit, 'BMP', { reliable: true });
    if (chart.expected('EGFR', visit.start) > 30 && chart.expected('K', visit.start) < 5.0) chart.prescribe(DRUGS.spironolactone25, visit, { indication: 'heartFailure' });
    chart.carePlan('heartFailure', visit, ['Daily weights; call for a gain over 1 kg in a day or 2 kg in a week.', 'Sodium below 2 g a day, fluid 1.5-2 L a day.', 'Titrate guideline-directed medical therapy; BMP 1-2 weeks after each change.']);
    let titrated = false;
    for (const t of followUps(chart, onset, 3)) {
      const fu = chart.visit(t, { specialty: 'cardiology', reason: 'Heart failure follow-up' });
      chart.vitals(fu);
      chart.panel(fu, 'BMP');
      if (chart.rng.chance(0.4)) chart.test(fu, 'NTBNP');
      const carv = chart.activeCourse('20352', t);
      if (!titrated && carv && carv.drug === DRUGS.carvedilol625) {
        chart.change(carv, DRUGS.carvedilol125, fu, 'uptitrated toward target dose');
        titrated = true;
      }
      const spiro = chart.activeCourse('9997', t);
      if (spiro && chart.expected('K', t) > 5.4) chart.stop(spiro, fu.start, { code: 'drughigh', text: 'hyperkalemia on spironolactone' }, fu);
      chart.addressed('heartFailure', fu, `NYHA class ${chart.rng.pick(['I', 'II', 'II', 'III'])}, euvolemic.`);
    }
    chart.appointment(chart.ref + chart.rng.between(7, 60) * DAY, chart.clinician('cardiology'), 'Heart failure follow-up', 'heartFailure');
  },
};
