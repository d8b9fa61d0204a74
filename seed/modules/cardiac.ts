// Heart disease (cardiology): coronary artery disease, heart failure with reduced ejection fraction (GDMT: beta
// blocker, ACE inhibitor/ARB, spironolactone, loop diuretic; NT-proBNP; admissions), atrial fibrillation on
// anticoagulation (warfarin with INR monitoring or a DOAC, dose-reduced for age/kidney function).
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, firstTolerated, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';

export const CAD = { icd: 'I25.10', snomed: '53741008', text: 'Coronary artery disease' };
export const HEART_FAILURE = { icd: 'I50.22', snomed: '84114007', text: 'Chronic systolic heart failure' };
export const AFIB = { icd: 'I48.91', snomed: '49436004', text: 'Atrial fibrillation' };

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
    if (chart.rng.chance(0.35)) chart.procedure(visit, '415070008', 'drug-eluting stent to the right coronary artery');
    for (const d of [DRUGS.aspirin81, DRUGS.atorvastatin40, DRUGS.metoprolol25]) {
      const statin = d === DRUGS.atorvastatin40;
      if (statin && (chart.onMed('83367', onset) || chart.onMed('301542', onset))) continue;
      if (d === DRUGS.metoprolol25 && chart.onMed('6918', onset)) continue;
      chart.prescribe(d, visit, { indication: 'cad' });
    }
    chart.carePlan('cad', visit, ['Aspirin, high-intensity statin and beta blocker.', 'Cardiac rehabilitation referral.', 'LDL goal below 70 mg/dL.']);
    for (const t of followUps(chart, onset, 12)) {
      const fu = chart.visit(t, { specialty: 'cardiology', reason: 'Coronary disease follow-up' });
      chart.vitals(fu);
      chart.panel(fu, 'LIPID');
      chart.addressed('cad', fu, 'no angina.');
    }
  },
};

export const heartFailure: ClinicalModule = {
  key: 'heartFailure', title: 'Heart failure', specialty: 'cardiology', condition: HEART_FAILURE,
  // AHA 2023 statistics: ~2.3% of adults; 65+ ~7%; more with coronary disease and hypertension.
  onset: (chart, planned) => chronicOnset(chart, byAge(chart.age, [0.002, 0.012, 0.05]) * (planned.has('cad') ? 2.5 : 1) * (planned.has('hypertension') ? 1.4 : 0.8), 40, 8),
  run(chart, onset) {
    chart.flags.add('hf-reduced-ef');
    chart.modify('NTBNP', (t, v) => (t >= onset - 30 * DAY ? v + 900 + chart.rng.between(0, 1500) - (chart.onMed('6918', t) || chart.onMed('20352', t) ? 400 : 0) : v));
    chart.modify('WEIGHT', (t, v) => (t >= onset - 30 * DAY && t < onset + 10 * DAY ? v + 4 : v));
    chart.modify('SPO2', (t, v) => (t >= onset - 5 * DAY && t < onset + 3 * DAY ? v - 5 : v));
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
        const inr = chart.test(v, 'INR');
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
