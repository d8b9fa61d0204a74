// Drug table: the structured timing of every MedicationRequest agrees with the sig a clinician reads (weekly drugs are
// per week in Timing.repeat, not daily).
import t from 'tap';
import type { MedicationRequest } from '@medplum/fhirtypes';
import { Chart, type Drug } from '../../seed/chart.ts';
import { buildStaff } from '../../seed/staff.ts';
import { buildPatient } from '../../seed/patient.ts';
import { NO_MESS } from '../../seed/mess.ts';
import { DRUGS } from '../../seed/drugs.ts';
import { YEAR } from '../../seed/time.ts';
import { validateResource } from '../../resources/validation/validate.ts';

const reference = Date.parse('2025-06-30T09:00:00Z');

function ordered(drug: Drug): MedicationRequest {
  const c = new Chart({ seed: 1, index: 0, reference, mess: NO_MESS, staff: buildStaff(1) });
  buildPatient(c);
  const course = c.prescribe(drug, c.visit(reference - YEAR, { reason: 'test' }));
  const mr = c.finish().find((r): r is MedicationRequest => r.resourceType === 'MedicationRequest' && r.id === course?.id);
  if (!mr) throw new Error(`no MedicationRequest for ${drug.product}`);
  return mr;
}

t.test('alendronate and methotrexate are ordered once weekly in the structured timing, as their sigs say', async (t) => {
  for (const drug of [DRUGS.alendronate70, DRUGS.methotrexate25]) {
    const mr = ordered(drug);
    const timing = mr.dosageInstruction![0].timing!;
    t.match(mr.dosageInstruction![0].text, /once weekly/);
    t.match(timing.repeat, { frequency: 1, period: 1, periodUnit: 'wk' }, `${drug.product}: 1 per 1 wk`);
    t.equal(timing.code?.coding?.[0].code, 'WK', `${drug.product}: GTS code WK`);
    t.same(validateResource(mr).filter((i) => i.severity === 'error' || i.severity === 'fatal'), [], `${drug.product}: valid`);
  }
});

t.test('every fixed drug: structured period is a week exactly when the sig says weekly', async (t) => {
  for (const [name, drug] of Object.entries(DRUGS)) {
    if (typeof drug === 'function' || drug.perDay === 0) continue;
    const repeat = ordered(drug).dosageInstruction![0].timing!.repeat!;
    t.equal(repeat.periodUnit, /\bweekly\b/i.test(drug.sig) ? 'wk' : 'd', `${name}: ${drug.sig}`);
  }
});
