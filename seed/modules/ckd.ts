// Chronic kidney disease (nephrology): eGFR declines over years (KDIGO stages), potassium rises as it falls, UACR
// monitored; ACE inhibitor/ARB for albuminuria. Other modules read eGFR (diabetes stops metformin below 30).
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';

export const CKD_STAGES = {
  3: { icd: 'N18.31', snomed: '433144002', text: 'Chronic kidney disease stage 3a' },
  4: { icd: 'N18.4', snomed: '431857002', text: 'Chronic kidney disease stage 4' },
};

export const ckd: ClinicalModule = {
  key: 'ckd', title: 'Chronic kidney disease', specialty: 'nephrology', condition: { icd: 'N18.31', snomed: '433144002', text: 'Chronic kidney disease stage 3' },
  // CKD stage 3-4 (USRDS/CDC CKD surveillance: ~6% of adults, 65+ ~ 20%); diabetes and hypertension double the risk.
  onset: (chart, planned) => chronicOnset(chart, byAge(chart.age, [0.004, 0.035, 0.11]) * (planned.has('diabetes') ? 2 : 1) * (planned.has('hypertension') ? 1.6 : 1), 35, 10),
  physiology(chart, onset, rng) {
    const atDx = rng.between(42, 56);
    const slope = rng.between(1.5, 4.5); // mL/min/1.73m2 lost per year
    chart.modify('EGFR', (t, v) => {
      const before = onset - 2 * YEAR;
      if (t < before) return v;
      if (t < onset) return v + (atDx - v) * ((t - before) / (2 * YEAR));
      return atDx - slope * ((t - onset) / YEAR);
    });
    chart.modify('K', (t, v) => v + Math.max(0, 50 - chart.expected('EGFR', t)) * 0.02);
    chart.modify('HGB', (t, v) => v - Math.max(0, 40 - chart.expected('EGFR', t)) * 0.06);
    chart.modify('UACR', (t, v) => (t >= onset - YEAR ? v + 120 : v));
  },
  run(chart, onset) {
    // The draws the physiology phase now takes from its own stream, still taken here: the rest of this chart's
    // stream stays where it was, so the charts tasks bind to do not move.
    chart.rng.between(42, 56);
    chart.rng.between(1.5, 4.5);
    const pcp = chart.visit(onset - 60 * DAY, { reason: 'Routine labs' });
    chart.vitals(pcp);
    chart.panel(pcp, 'BMP', { reliable: true });
    chart.referral(pcp, 'nephrology', 'reduced eGFR');
    const visit = chart.visit(onset, { specialty: 'nephrology', reason: 'Reduced kidney function', type: '11429006' });
    chart.vitals(visit);
    chart.panel(visit, 'BMP', { reliable: true });
    chart.test(visit, 'UACR');
    const stage3 = chart.expected('EGFR', onset) >= 30;
    chart.diagnose('ckd', stage3 ? CKD_STAGES[3] : CKD_STAGES[4], visit);
    if (!chart.onMed('29046', onset) && !chart.onMed('52175', onset)) {
      // Hypertension (run earlier) may start an ACE inhibitor/ARB later: this order then ends there (duplicate therapy).
      const later = chart.courses.filter((c) => c.start > onset && (c.drug.rxcui === DRUGS.lisinopril10.rxcui || c.drug.rxcui === DRUGS.losartan50.rxcui)).sort((a, b) => a.start - b.start)[0];
      const course = chart.prescribe(chart.isAllergicTo(DRUGS.lisinopril10.rxcui) ? DRUGS.losartan50 : DRUGS.lisinopril10, visit, { indication: 'ckd' });
      if (course && later) chart.stop(course, later.start, { code: 'sdupther', text: 'duplicate therapy: continued under the hypertension regimen' });
    }
    chart.carePlan('ckd', visit, ['Blood pressure goal below 130/80 mmHg.', 'Avoid NSAIDs and nephrotoxins; dose-adjust renally cleared drugs.', 'BMP and urine albumin/creatinine ratio every 3-6 months.']);
    let stage4Recorded = !stage3;
    for (const t of followUps(chart, onset, 4)) {
      const fu = chart.visit(t, { specialty: 'nephrology', reason: 'CKD follow-up' });
      chart.vitals(fu);
      chart.panel(fu, 'BMP', { reliable: true });
      if (chart.rng.chance(0.5)) chart.test(fu, 'UACR');
      if (chart.rng.chance(0.4)) chart.panel(fu, 'CBC');
      const egfr = chart.expected('EGFR', t);
      if (!stage4Recorded && egfr < 30) {
        stage4Recorded = true;
        const previous = chart.conditions.get('ckd')!;
        chart.resolve(previous.id, fu.start);
        chart.diagnose('ckd', CKD_STAGES[4], fu);
        chart.conditions.get('ckd')!.onset = previous.onset;
        fu.plan.push('Progression to stage 4; discussed renal replacement therapy options.');
      } else {
        chart.addressed('ckd', fu, `eGFR about ${Math.round(egfr)}; ${egfr < 30 ? 'stage 4' : 'stage 3'}.`);
      }
      if (chart.expected('K', t) > 5.3) fu.plan.push('Hyperkalemia: low-potassium diet reviewed; recheck in 1 week.');
    }
    const next = chart.ref + chart.rng.between(20, 100) * DAY;
    chart.appointment(next, chart.clinician('nephrology'), 'CKD follow-up', 'ckd');
    chart.futureOrder('BMP', next - 5 * DAY, chart.clinician('nephrology'), 'ckd');
  },
};
