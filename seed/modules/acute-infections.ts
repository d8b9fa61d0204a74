// Acute infections treated in primary care or urgent care (UTI, pharyngitis, sinusitis), with antibiotics chosen
// around recorded allergies (IDSA first-line choices, then alternatives).
import type { ClinicalModule } from './module.ts';
import { firstTolerated, historyStart } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY } from '../time.ts';

const EPISODES = [
  { spec: { icd: 'N39.0', snomed: '68566005', text: 'Urinary tract infection' }, reason: 'Dysuria and urinary frequency', drugs: [DRUGS.smxTmp, DRUGS.cephalexin500, DRUGS.amoxicillin500] },
  { spec: { icd: 'J02.9', snomed: '363746003', text: 'Acute pharyngitis' }, reason: 'Sore throat and fever', drugs: [DRUGS.amoxicillin500, DRUGS.cephalexin500] },
  { spec: { icd: 'J01.90', snomed: '15805002', text: 'Acute sinusitis' }, reason: 'Facial pain and purulent nasal discharge for 12 days', drugs: [DRUGS.amoxicillin500, DRUGS.smxTmp] },
];

export const acuteInfections: ClinicalModule = {
  key: 'acuteInfection', title: 'Acute infection', specialty: 'primaryCare',
  onset: (chart) => (chart.rng.chance(0.35) ? historyStart(chart) + chart.rng.next() * (chart.ref - 14 * DAY - historyStart(chart)) : undefined),
  run(chart, onset) {
    const episode = chart.rng.pick(EPISODES);
    const visit = chart.visit(onset, { kind: chart.rng.chance(0.2) ? 'EMER' : 'AMB', specialty: chart.rng.chance(0.2) ? 'emergency' : undefined, reason: episode.reason, type: '185345009' });
    chart.vitals(visit);
    chart.diagnose('acuteInfection', episode.spec, visit, { abated: visit.start + 10 * DAY });
    const drug = firstTolerated(chart, ...episode.drugs);
    if (drug) chart.prescribe(drug, visit, { indication: 'acuteInfection', end: visit.start + 10 * DAY, completes: true });
  },
};
