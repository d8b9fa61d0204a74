// Reference solution: review the HF history, GDMT orders, allergies, kidney function, potassium and vitals; find the
// pillars not on board and start the one the eGFR and potassium allow (empagliflozin 10 mg or spironolactone 12.5 mg;
// the alternative solution dapagliflozin 10 mg or eplerenone 25 mg), or nothing. Thresholds come from facts.ts; the
// reading and the decision are this file's own code (the grader decides independently).
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { effectiveTime } from '../../../graders/lib/index.ts';
import { conceptIs } from '../../../graders/lib/drug-classes.ts';
import {
  FLOWSHEET, LOINC, MRA_MAX_POTASSIUM_EXCLUSIVE, MRA_MIN_EGFR_EXCLUSIVE, PILLARS, SGLT2_MIN_EGFR, SGLT2_SUSTAINED_DAYS, type Pillar, type PillarId,
} from './facts.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const valued = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
/** Whether an order fills the pillar: its drug, by any code, brand or name, is in one of the pillar's classes. */
const fills = (order: MedicationRequest, pillar: Pillar): boolean => pillar.classes.some((id) => conceptIs(order.medicationCodeableConcept, id));

interface Drug { code: string; name: string; mg: number; sig: string }
const CHOICES: Record<'main' | 'alternative', Record<'sglt2' | 'mra', Drug>> = {
  main: { sglt2: { code: '1545653', name: 'empagliflozin', mg: 10, sig: '10 mg by mouth once daily' }, mra: { code: '9997', name: 'spironolactone', mg: 12.5, sig: '12.5 mg by mouth once daily' } },
  alternative: { sglt2: { code: '1488564', name: 'dapagliflozin', mg: 10, sig: '10 mg by mouth once daily' }, mra: { code: '298869', name: 'eplerenone', mg: 25, sig: '25 mg by mouth once daily' } },
};

export default async function solution(ctx: SolutionContext): Promise<void> {
  await act(ctx, CHOICES.main);
}

/** Alternatives task check also proves: dapagliflozin and eplerenone are as good as empagliflozin and spironolactone. */
export const alternativeSolutions = {
  dapagliflozinOrEplerenone: (ctx: SolutionContext) => act(ctx, CHOICES.alternative),
};

async function act({ fhir, patient, now, task, finish }: SolutionContext, drugs: Record<'sglt2' | 'mra', Drug>): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const orders = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 50 });
  const egfrs = valued(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|33914-3,${LOINC}|62238-1,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 20 }));
  const k = valued(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 20 }))[0]!;
  await fhir.search('Observation', { patient, code: `${LOINC}|33762-6,${FLOWSHEET}|NTBNP`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `${LOINC}|10230-1`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 30 });
  const egfr = egfrs[0]!.valueQuantity!.value!;
  const potassium = k.valueQuantity!.value!;

  const missing = PILLARS.filter((p) => !orders.some((o) => fills(o, p)));
  const latestAt = Date.parse(effectiveTime(egfrs[0]!));
  const recent = egfrs.filter((o) => latestAt - Date.parse(effectiveTime(o)) <= SGLT2_SUSTAINED_DAYS * 86_400_000).map((o) => o.valueQuantity!.value!);
  const canStart: Record<PillarId, boolean> = {
    'beta-blocker': false, raas: false,
    sglt2: recent.every((v) => v >= SGLT2_MIN_EGFR),
    mra: egfr > MRA_MIN_EGFR_EXCLUSIVE && potassium < MRA_MAX_POTASSIUM_EXCLUSIVE,
  };
  const toStart = missing.filter((p) => (p.id === 'sglt2' || p.id === 'mra') && canStart[p.id]);
  if (toStart.length > 1) throw new Error('two startable pillars: not a variant');
  const ordered: string[] = [];
  for (const pillar of toStart) {
    const drug = drugs[pillar.id as 'sglt2' | 'mra'];
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order',
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: drug.code, display: drug.name }], text: `${drug.name} ${drug.mg} mg tablet` },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '84114007', display: 'Heart failure' }], text: `HFrEF: ${pillar.name} (GDMT pillar)` }],
      dosageInstruction: [{
        text: drug.sig, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: drug.mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      }],
    });
    ordered.push(`${drug.name} ${drug.sig}`);
  }
  const held = missing.filter((p) => !toStart.includes(p)).map((p) => `${p.name} not started (eGFR ${egfr}, K ${potassium})`);
  await finish(JSON.stringify({
    missing: missing.map((p) => p.name), ordered: ordered.join('; ') || 'none', egfr, potassium,
    note: [ordered.length ? `Started ${ordered.join('; ')}.` : 'No new order.', ...held, 'The pillars already on board continue unchanged.'].join(' '),
  }));
}
