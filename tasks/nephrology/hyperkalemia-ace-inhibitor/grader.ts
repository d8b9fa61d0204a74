// Grader: expected values come from the patient's chart (latest potassium, the active lisinopril order at the start).
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import {
  allOf, changeOf, createdResources, fail, fetchedAll, findServiceRequest, latestObservation, LOINC, matchDiscontinuation,
  matchNumber, noNewOrderOf, quantityOf, readBeforeWrite, verdict, writesOnlyFor, isMedication,
} from '../../../graders/lib/index.ts';
import type { GraderContext } from '../../../harness/types.ts';

export const LISINOPRIL = { ingredients: ['29046'] };
const POTASSIUM = [{ system: LOINC, codes: ['2823-3'] }];
/** ACE inhibitors, ARBs and potassium-sparing diuretics (RxNorm ingredients). */
const POTASSIUM_RAISING = {
  ingredients: ['29046', '3827', '35296', '18867', '1998', '52175', '69749', '83818', '214354', '321064', '9997', '298869', '10763'],
};
const POTASSIUM_LABS = [{ system: LOINC, codes: ['2823-3', '51990-0', '24320-4', '24323-8'] }];

/** Variants: the latest potassium is >= 5.5 mmol/L. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const k = quantityOf(await latestObservation(fhir, patient, POTASSIUM));
  return k !== undefined && k.value >= 5.5;
}

/** The lisinopril orders that were active when the episode began (from changes' "before", else the final state). */
async function startingAceOrders({ fhir, patient, changes }: GraderContext): Promise<string[]> {
  const now = await fhir.search<MedicationRequest>('MedicationRequest', { patient });
  return now.filter((o) => {
    const before = (changeOf(changes, 'MedicationRequest', o.id!)?.before ?? o) as MedicationRequest | null;
    const wasCreated = changeOf(changes, 'MedicationRequest', o.id!)?.action === 'created';
    return !wasCreated && before?.status === 'active' && isMedication(before.medicationCodeableConcept, LISINOPRIL);
  }).map((o) => o.id!);
}

export const checks: Record<string, Check> = {
  reviewed_potassium: async ({ fhir, patient, log }) => {
    const latest = await latestObservation(fhir, patient, POTASSIUM);
    if (!latest) return fail('the chart holds no potassium result');
    return verdict(fetchedAll(log, [`Observation/${latest.id}`], 'latest potassium'));
  },
  reviewed_ace_order: async (ctx) => {
    const ids = await startingAceOrders(ctx);
    if (ids.length === 0) return fail('no active lisinopril order at the start (binding error)');
    return verdict(fetchedAll(ctx.log, ids.map((id) => `MedicationRequest/${id}`), 'lisinopril order'));
  },
  stated_potassium: async ({ fhir, patient, answer }) => {
    const k = quantityOf(await latestObservation(fhir, patient, POTASSIUM));
    if (!k) return fail('the chart holds no potassium result');
    return verdict(matchNumber(answer, { value: k.value, unit: 'mmol/L', tolerance: { absolute: 0.05 }, near: ['k', 'potassium'], window: 30, fields: ['potassium', 'k'] }));
  },
  ace_inhibitor_stopped: async (ctx) => {
    const ids = await startingAceOrders(ctx);
    if (ids.length === 0) return fail('no active lisinopril order at the start (binding error)');
    return verdict(allOf(...ids.map((id) => matchDiscontinuation(changeOf(ctx.changes, 'MedicationRequest', id), `MedicationRequest/${id}`, {
      reasonRequired: true, reasonWords: ['hyperkal', 'potassium', 'high k', 'k+'], reasonCodes: [{ system: 'http://snomed.info/sct', codes: ['14140009'] }],
    }))));
  },
  repeat_potassium_ordered: ({ patient, changes }) => verdict(findServiceRequest(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, codes: POTASSIUM_LABS, intent: ['order', 'original-order'], status: ['active'],
  })),
  no_potassium_raising_substitute: ({ changes }) => verdict(noNewOrderOf(changes, POTASSIUM_RAISING, 'an ACE inhibitor, ARB or potassium-sparing diuretic')),
  writes_scoped_and_informed: ({ patient, changes, log }) => verdict(allOf(writesOnlyFor(changes, patient), readBeforeWrite(log, changes))),
};
