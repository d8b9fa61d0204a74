// Grader: the GDMT orders active at the start and the latest eGFR/potassium come from the chart; the end state must
// hold a new SGLT2 inhibitor order and exactly one active order per GDMT class.
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, answerText, createdResources, fail, fetchedAll, findMedicationOrder, isMedication, latestObservation, LOINC, matchNumber, matchOf, matchTerms,
  quantityOf, readBeforeWrite, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '48642-3', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const POTASSIUM = [{ system: LOINC, codes: ['2823-3', '6298-4'] }, { system: FLOWSHEET, codes: ['K'] }];

export const CLASSES: Record<string, { ingredients: string[]; names: RegExp }> = {
  'beta blocker': { ingredients: ['20352', '6918', '19484'], names: /\b(carvedilol|metoprolol|bisoprolol)\b/i },
  'ACE inhibitor/ARB/ARNI': { ingredients: ['29046', '3827', '35296', '18867', '1998', '52175', '69749', '83818', '214354', '321064', '50166', '54552', '73494', '1656328'], names: /\b(lisinopril|enalapril|ramipril|benazepril|captopril|losartan|valsartan|irbesartan|olmesartan|candesartan|telmisartan|sacubitril)\b/i },
  MRA: { ingredients: ['9997', '298869', '2562811'], names: /\b(spironolactone|eplerenone|finerenone)\b/i },
  'SGLT2 inhibitor': { ingredients: ['1545653', '1488564', '1373458', '2627044'], names: /\b(empagliflozin|dapagliflozin|canagliflozin|sotagliflozin)\b/i },
};
export const inClass = (o: MedicationRequest, cls: string) =>
  isMedication(o.medicationCodeableConcept, CLASSES[cls]) || CLASSES[cls].names.test(o.medicationCodeableConcept?.text ?? '');

async function active(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active');
}

/** Variants: one active order per pillar except SGLT2i (none), latest eGFR >= 20. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const orders = await active(fhir, patient);
  const count = (cls: string) => orders.filter((o) => inClass(o, cls)).length;
  if (count('beta blocker') !== 1 || count('ACE inhibitor/ARB/ARNI') !== 1 || count('MRA') !== 1 || count('SGLT2 inhibitor') !== 0) return false;
  const egfr = quantityOf(await latestObservation(fhir, patient, EGFR));
  return egfr !== undefined && egfr.value >= 20 && (await latestObservation(fhir, patient, POTASSIUM)) !== undefined;
}

export const checks: Record<string, Check> = {
  reviewed_gdmt_orders: async ({ fhir, patient, log, changes }) => {
    const created = new Set(createdResources(changes, 'MedicationRequest').map((o) => o.id));
    const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
    const starting = all.filter((o) => !created.has(o.id) && ['beta blocker', 'ACE inhibitor/ARB/ARNI', 'MRA'].some((c) => inClass(o, c)))
      .filter((o) => (changes.find((c) => c.type === 'MedicationRequest' && c.id === o.id)?.before as MedicationRequest | undefined ?? o).status === 'active');
    if (starting.length < 3) return fail('fewer than three GDMT orders were active at the start (binding error)');
    return verdict(fetchedAll(log, starting.map((o) => `MedicationRequest/${o.id}`), 'GDMT order'));
  },
  reviewed_safety_labs: async ({ fhir, patient, log }) => {
    const e = await latestObservation(fhir, patient, EGFR);
    const k = await latestObservation(fhir, patient, POTASSIUM);
    if (!e || !k) return fail('the chart lacks an eGFR or potassium');
    return verdict(fetchedAll(log, [`Observation/${e.id}`, `Observation/${k.id}`], 'latest safety lab'));
  },
  identified_missing_pillar: async ({ fhir, patient, answer }) => {
    const e = quantityOf(await latestObservation(fhir, patient, EGFR));
    if (!e) return fail('the chart holds no eGFR');
    return verdict(allOf(
      matchTerms(answerText(answer), [['sglt2', 'sglt-2', 'empagliflozin', 'dapagliflozin', 'gliflozin']]),
      matchNumber(answer, { value: e.value, tolerance: { absolute: 0.5 }, fields: ['egfr'], near: ['egfr'] }),
    ));
  },
  sglt2_ordered: ({ patient, changes }) => verdict(findMedicationOrder(createdResources<MedicationRequest>(changes, 'MedicationRequest'), {
    patient, ingredients: ['1545653', '1488564'], dose: { value: 10, unit: 'mg' }, timesPerDay: 1, route: ['oral'], status: ['active'], intent: ['order', 'original-order'],
  })),
  no_duplicate_gdmt: async ({ fhir, patient }) => {
    const orders = await active(fhir, patient);
    const problems: string[] = [];
    const evidence: string[] = [];
    for (const cls of Object.keys(CLASSES)) {
      const ids = orders.filter((o) => inClass(o, cls)).map((o) => `MedicationRequest/${o.id}`);
      evidence.push(`${cls}: ${ids.join(', ') || 'none'}`);
      if (ids.length !== 1) problems.push(`${cls}: ${ids.length} active orders${ids.length ? ` (${ids.join(', ')})` : ''}, expected exactly one`);
    }
    return verdict(matchOf(problems, evidence));
  },
  writes_scoped_and_informed: ({ patient, changes, log }) => verdict(allOf(writesOnlyFor(changes, patient), readBeforeWrite(log, changes))),
};
