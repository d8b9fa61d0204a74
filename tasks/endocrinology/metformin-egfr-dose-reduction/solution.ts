// Reference solution: review the diabetes and kidney picture; take the band the latest two eGFRs agree on (FDA 2016,
// KDIGO 2022): >= 45 keep the dose, 30-44 replace the full-dose order with 500 mg twice daily, < 30 stop metformin.
// Order a BMP either way (2 weeks after stopping, else 3 months).
import type { MedicationRequest, Observation, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { conceptIs } from '../../../graders/lib/drug-classes.ts';
import { dailyDose } from '../../../graders/lib/index.ts';
import { EGFR, EGFR_BANDS, FLOWSHEET, METFORMIN, RXNORM, type Decision } from './facts.ts';

const codes = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
const when = (o: Observation) => o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.issued ?? '';

const isMetformin = (o: MedicationRequest): boolean => conceptIs(o.medicationCodeableConcept, 'metformin');
/** mg a day: dose (mg, or tablets of the product's strength) times the daily frequency, by graders/lib/dose. */
const mgPerDay = (o: MedicationRequest): number | undefined => dailyDose(o, 'mg');

function band(egfr: number): Decision {
  return egfr < EGFR_BANDS.stopBelow ? 'stop' : egfr < EGFR_BANDS.reduceBelow ? 'reduce' : 'continue';
}

export default async function solution(ctx: SolutionContext): Promise<void> {
  await act(ctx, 'replace');
}

/** Alternatives task check also proves: the dose changed in place on the existing order (eGFR 30-44). */
export const alternativeSolutions = {
  'change-in-place': (ctx: SolutionContext) => act(ctx, 'in-place'),
};

async function act({ fhir, patient, now, task, finish }: SolutionContext, style: 'replace' | 'in-place'): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: `${RXNORM}|${METFORMIN.ingredient}` });
  const egfrs = (await fhir.search<Observation>('Observation', { patient, code: codes(EGFR), _sort: '-date', _count: 50 }))
    .filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
    .sort((a, b) => Date.parse(when(b)) - Date.parse(when(a)));
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 20 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|4548-4,${FLOWSHEET}|A1C`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2823-3,${FLOWSHEET}|K`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 20 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  const [latest] = egfrs;
  const egfr = latest.valueQuantity!.value!;
  const decision = band(egfr);
  const metformin = active.filter(isMetformin);
  const currentMg = metformin.reduce((sum, o) => sum + (mgPerDay(o) ?? 0), 0);
  const reducedDosage = {
    text: '500 mg by mouth twice daily with meals (reduced for eGFR 30-44)',
    timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' as const } },
    route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
    doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
  };

  if (decision === 'reduce' && style === 'in-place') {
    for (const order of metformin) {
      await fhir.read('MedicationRequest', order.id!);
      await fhir.patch('MedicationRequest', order.id!, [
        { op: 'replace', path: '/dosageInstruction', value: [reducedDosage] },
        { op: 'add', path: '/note', value: [{ text: `Dose reduced for eGFR ${egfr} (KDIGO 2022)` }] },
      ]);
    }
  } else if (decision !== 'continue') {
    for (const order of metformin) {
      await fhir.read('MedicationRequest', order.id!);
      await fhir.patch('MedicationRequest', order.id!, [
        { op: 'replace', path: '/status', value: 'stopped' },
        { op: 'add', path: '/statusReason', value: { text: decision === 'stop' ? `eGFR ${egfr} mL/min/1.73m2 below 30: metformin contraindicated, stopped` : `eGFR ${egfr} mL/min/1.73m2 (30-44): metformin dose reduced to 500 mg twice daily` } },
      ]);
    }
    if (decision === 'reduce') {
      await fhir.create<MedicationRequest>({
        resourceType: 'MedicationRequest', status: 'active', intent: 'order',
        medicationCodeableConcept: { coding: [{ system: RXNORM, code: '861007', display: 'metformin hydrochloride 500 MG Oral Tablet' }], text: 'metformin hydrochloride 500 MG Oral Tablet' },
        subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
        reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '44054006', display: 'Type 2 diabetes mellitus' }] }],
        note: [{ text: `Dose reduced for eGFR ${egfr} (KDIGO 2022: max 1000 mg/day at eGFR 30-44; stop if < 30).` }],
        dosageInstruction: [reducedDosage],
      });
    }
  }
  const days = decision === 'stop' ? 14 : 90;
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '51990-0', display: 'Basic metabolic panel - Blood' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    occurrenceDateTime: new Date(Date.parse(now) + days * 86400_000).toISOString(),
    reasonCode: [{ text: `T2DM on metformin, eGFR ${egfr}: recheck kidney function` }],
  });
  const dailyDoseMg = decision === 'stop' ? 0 : decision === 'reduce' ? 1000 : currentMg;
  const plan = {
    stop: 'metformin stopped (eGFR < 30, contraindicated); BMP in 2 weeks; glycemic alternatives (e.g. DPP-4 inhibitor at renal dose, insulin) per A1c',
    reduce: 'metformin reduced to 500 mg twice daily (eGFR 30-44); BMP in 3 months; stop metformin if eGFR < 30',
    continue: `metformin continued at ${currentMg} mg/day (eGFR >= 45); BMP in 3 months; reduce if eGFR falls below 45`,
  }[decision];
  await finish(JSON.stringify({ egfr, egfrDate: when(latest).slice(0, 10), dailyDoseMg, plan }));
}
