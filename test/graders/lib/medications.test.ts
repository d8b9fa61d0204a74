import t from 'tap';
import type { MedicationRequest } from '@medplum/fhirtypes';
import { doseOf, findMedicationOrder, matchMedicationOrder, timesPerDay } from '../../../graders/lib/medications.ts';
import { plainDrugName, RXNORM } from '../../../graders/lib/codings.ts';

const order = (over: Partial<MedicationRequest> = {}): MedicationRequest => ({
  resourceType: 'MedicationRequest', id: 'm1', status: 'active', intent: 'order', subject: { reference: 'Patient/p1' },
  medicationCodeableConcept: { coding: [{ system: RXNORM, code: '314076', display: 'lisinopril 10 MG Oral Tablet' }] },
  dosageInstruction: [{
    route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006' }] },
    timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
    doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }],
  }],
  ...over,
});

const expected = { patient: 'p1', ingredients: ['29046'], dose: { value: 10, unit: 'mg' }, route: ['oral'], timesPerDay: 1, intent: ['order'], status: ['active'] };

t.test('an SCD matches by its ingredient; dose, route and frequency match', async (t) => {
  const m = matchMedicationOrder(order(), expected);
  t.ok(m.ok, m.mismatches.join('; '));
});

t.test('every mismatch is reported, not only the first', async (t) => {
  const wrong = order({
    status: 'draft', subject: { reference: 'Patient/p2' },
    medicationCodeableConcept: { coding: [{ system: RXNORM, code: '979492' }] }, // losartan: the tempting substitute
    dosageInstruction: [{ text: '20 mg twice daily', route: { text: 'IV' } }],
  });
  const m = matchMedicationOrder(wrong, expected);
  t.notOk(m.ok);
  t.equal(m.mismatches.length, 6, m.mismatches.join('\n'));
  t.match(m.mismatches.join('\n'), /Patient\/p2/);
  t.match(m.mismatches.join('\n'), /drug is rxnorm\|979492/);
  t.match(m.mismatches.join('\n'), /status is draft/);
  t.match(m.mismatches.join('\n'), /dose is 20 mg/);
  t.match(m.mismatches.join('\n'), /route is iv/);
  t.match(m.mismatches.join('\n'), /frequency is 2\/day/);
});

t.test('dose tolerance and unit conversion', async (t) => {
  const grams = order({ dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 0.01, unit: 'g' } }], text: 'once daily by mouth' }] });
  t.ok(matchMedicationOrder(grams, expected).ok, '0.01 g == 10 mg; frequency and route from text');
  const off = order({ dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 12, unit: 'mg' } }], text: 'daily po' }] });
  t.notOk(matchMedicationOrder(off, expected).ok, '12 mg is outside ±10%');
  const mcg = order({ dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 10, unit: 'mcg' } }], text: 'daily po' }] });
  t.notOk(matchMedicationOrder(mcg, expected).ok, '10 mcg is not 10 mg');
});

t.test('timesPerDay from repeat, code and text', async (t) => {
  t.equal(timesPerDay({ timing: { repeat: { frequency: 1, period: 12, periodUnit: 'h' } } }), 2);
  t.equal(timesPerDay({ timing: { code: { coding: [{ code: 'TID' }] } } }), 3);
  t.equal(timesPerDay({ text: 'take 1 tab by mouth twice a day' }), 2);
  t.equal(timesPerDay({ text: 'as directed' }), undefined);
  t.same(doseOf({ text: 'metformin 500 mg BID' }), { value: 500, unit: 'mg' });
});

t.test('findMedicationOrder picks the matching order and lists near misses otherwise', async (t) => {
  const right = order({ id: 'good' });
  const wrongDose = order({ id: 'bad', dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 40, unit: 'mg' } }], text: 'daily po' }] });
  t.equal(findMedicationOrder([wrongDose, right], expected).candidate?.id, 'good');
  const none = findMedicationOrder([wrongDose], expected);
  t.notOk(none.ok);
  t.match(none.mismatches[0], /MedicationRequest\/bad: dose is 40 mg/);
  t.notOk(findMedicationOrder([], expected).ok);
});

t.test('plainDrugName writes an RxNorm drug name as a note would', async (t) => {
  t.equal(plainDrugName('lisinopril 10 MG Oral Tablet'), 'lisinopril 10 mg');
  t.equal(plainDrugName('losartan potassium 50 MG Oral Tablet - see sig'), 'losartan potassium 50 mg Oral Tablet', 'the form is dropped only at the end');
  t.equal(plainDrugName('amlodipine 5 MG - see sig'), 'amlodipine 5 mg');
  t.equal(plainDrugName('MGO cream'), 'MGO cream', 'MG only as a whole word');
  t.equal(plainDrugName('insulin glargine 100 UNT/ML Injectable Solution'), 'insulin glargine 100 UNT/ML Injectable Solution', 'other forms kept');
});
