import t from 'tap';
import type { Dosage, MedicationRequest } from '@medplum/fhirtypes';
import { dailyDose, doseOf, findMedicationOrder, matchMedicationOrder, orderDoseIn, orderTimesPerDay, timesPerDay } from '../../../graders/lib/medications.ts';
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

t.test('correct orders written other ways are recognised', async (t) => {
  const tablet = order({ dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet', code: '{tbl}', system: 'http://unitsofmeasure.org' } }], timing: { code: { coding: [{ code: 'QD' }] } } }] });
  const m = matchMedicationOrder(tablet, expected);
  t.ok(m.ok, `1 tablet of the 10 mg SCD is 10 mg; route from the dose form "Oral Tablet": ${m.mismatches.join('; ')}`);
  const spelled = order({ dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 10, unit: 'milligram' } }], route: { text: 'PO' }, text: 'once a day' }] });
  t.ok(matchMedicationOrder(spelled, expected).ok, '"milligram", route "PO", "once a day"');
  const textOnly = order({ medicationCodeableConcept: { text: 'lisinopril 10 mg tablet', coding: [{ system: RXNORM, code: '29046' }] }, dosageInstruction: [{ text: 'Take 1 tablet by mouth daily' }] });
  t.ok(matchMedicationOrder(textOnly, expected).ok, 'ingredient code, strength in the text, dose and route in the sig');
  const contained = order({
    medicationCodeableConcept: undefined, medicationReference: { reference: '#med' },
    contained: [{ resourceType: 'Medication', id: 'med', code: { coding: [{ system: RXNORM, code: '314076' }] } }],
    dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 1 } }], text: 'daily by mouth' }],
  });
  t.ok(matchMedicationOrder(contained, expected).ok, matchMedicationOrder(contained, expected).mismatches.join('; '));
});

t.test('wrong doses written as counts are still wrong', async (t) => {
  const twenty = order({ medicationCodeableConcept: { coding: [{ system: RXNORM, code: '314077' }] }, dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }], text: 'daily po' }] });
  const m = matchMedicationOrder(twenty, expected);
  t.notOk(m.ok, '1 tablet of lisinopril 20 MG is 20 mg');
  t.match(m.mismatches.join('\n'), /dose is 20 mg \(1 tablet x 20 mg\), expected 10 mg/);
  const two = order({ dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 2, unit: 'tablet' } }], text: 'daily po' }] });
  t.notOk(matchMedicationOrder(two, expected).ok, '2 tablets of 10 mg is 20 mg');
  const volume = order({ medicationCodeableConcept: { coding: [{ system: RXNORM, code: '29046' }], text: 'lisinopril oral solution' }, dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 10, unit: 'mL' } }], text: 'daily po' }] });
  const v = matchMedicationOrder(volume, expected);
  t.notOk(v.ok, '10 mL of a solution without concentration is not 10 mg');
  t.match(v.mismatches.join('\n'), /cannot be compared with mg/);
  const inhaled = order({ dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }], route: { coding: [{ system: 'http://snomed.info/sct', code: '447694001' }] }, text: 'daily' }] });
  t.match(matchMedicationOrder(inhaled, expected).mismatches.join('\n'), /route is 447694001 \(read as inhaled from Dosage.route\), expected oral/);
});

t.test('combination product: the dose is the expected ingredient\'s', async (t) => {
  const combo = order({ medicationCodeableConcept: { coding: [{ system: RXNORM, code: '197886', display: 'hydrochlorothiazide 12.5 MG / lisinopril 20 MG Oral Tablet' }] }, dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }], text: 'daily po' }] });
  t.ok(matchMedicationOrder(combo, { ...expected, dose: { value: 20, unit: 'mg' } }).ok, 'lisinopril 20 mg in lisinopril/HCTZ 20-12.5');
  t.notOk(matchMedicationOrder(combo, { ...expected, dose: { value: 12.5, unit: 'mg' } }).ok, '12.5 mg is the HCTZ, not the lisinopril');
});

t.test('split and concurrent dosages; daily dose', async (t) => {
  const metformin = (dosageInstruction: MedicationRequest['dosageInstruction']) => order({ medicationCodeableConcept: { coding: [{ system: RXNORM, code: '6809' }], text: 'metformin 500 mg tablet' }, dosageInstruction });
  const am: Dosage = { doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }], timing: { repeat: { when: ['MORN'] } } };
  const pm: Dosage = { doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }], timing: { repeat: { when: ['EVE'] } } };
  const split = metformin([am, pm]);
  t.equal(orderTimesPerDay(split), 2);
  t.equal(dailyDose(split, 'mg'), 1000);
  t.ok(matchMedicationOrder(split, { ingredients: ['6809'], dose: { value: 500, unit: 'mg' }, timesPerDay: 2 }).ok, '500 mg morning + 500 mg evening is 500 mg BID');
  const bid = metformin([{ text: 'Take 2 tablets by mouth twice daily' }]);
  t.equal(dailyDose(bid, 'mg'), 2000, '2 x 500 mg twice a day');
  t.ok(matchMedicationOrder(metformin([{ doseAndRate: [{ doseQuantity: { value: 1000, unit: 'mg' } }], text: 'daily' }]), { ingredients: ['6809'], dailyDose: { value: 1000, unit: 'mg' } }).ok, '1000 mg daily is 1000 mg/day');
  const over = matchMedicationOrder(bid, { ingredients: ['6809'], maxDailyDose: { value: 1000, unit: 'mg' } });
  t.notOk(over.ok, '2000 mg/day is above a 1000 mg cap');
  t.match(over.mismatches.join('\n'), /daily dose is 2000 mg, above the maximum 1000 mg/);
  const unknown = matchMedicationOrder(metformin([{ doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }] }]), { ingredients: ['6809'], maxDailyDose: { value: 1000, unit: 'mg' } });
  t.notOk(unknown.ok, 'no frequency: the daily dose is unknown, not assumed once a day');
  const taper = metformin([{ sequence: 1, ...am, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } } }, { sequence: 2, doseAndRate: [{ doseQuantity: { value: 1000, unit: 'mg' } }], timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } } }]);
  t.equal(dailyDose(taper, 'mg'), 500, 'a later step of a titration is not added');
});

t.test('doseOf keeps its old reading without a product, and reads counts with one', async (t) => {
  t.same(doseOf({ doseAndRate: [{ doseQuantity: { value: 1, unit: '{tbl}' } }] }), { value: 1, unit: '{tbl}' });
  t.same(doseOf({ doseAndRate: [{ doseQuantity: { value: 1, unit: '{tbl}' } }] }, 'lisinopril 10 MG Oral Tablet'), { value: 10, unit: 'mg' });
  t.same(doseOf({ doseAndRate: [{ doseQuantity: { value: 10, unit: 'MG' } }] }), { value: 10, unit: 'mg' });
});

t.test('orderDoseIn reads the order against its own product', async (t) => {
  const apixaban = order({ medicationCodeableConcept: { coding: [{ system: RXNORM, code: '1364445', display: 'apixaban 5 MG Oral Tablet' }] }, dosageInstruction: [{ doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }], text: 'twice daily' }] });
  t.equal(orderDoseIn(apixaban, 'mg'), 5, '1 tablet of apixaban 5 MG is 5 mg, not 1');
  t.equal(dailyDose(apixaban, 'mg'), 10);
  t.equal(orderDoseIn(apixaban, 'mcg'), 5000);
});
