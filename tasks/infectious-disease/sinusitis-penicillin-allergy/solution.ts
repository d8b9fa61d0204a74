// Reference solution: review allergies, problems (pregnancy), current meds and kidney function; the amoxicillin
// allergy rules out the requested drug. Choose from the IDSA 2012 penicillin-allergy regimens what this chart allows:
// doxycycline 100 mg BID unless pregnant or doxycycline-allergic; then a cephalosporin with a side chain unlike
// amoxicillin's (cefuroxime 500 mg BID) when pregnant, else levofloxacin 500 mg daily.
import type { AllergyIntolerance, Condition, MedicationRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import { AMOXICILLIN, PREGNANCY, RXNORM, SNOMED } from './facts.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const allergies = (await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient }))
    .filter((a) => a.clinicalStatus?.coding?.some((c) => c.code === 'active'));
  const problems = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 10 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });

  const allergicTo = (drug: string) => allergies.some((a) => ingredientNamesOf(a.code).includes(drug));
  const pregnant = problems.some((c) => (c.code?.coding ?? []).some((k) => (k.system === SNOMED && PREGNANCY.snomed.includes(k.code ?? '')) || PREGNANCY.icd10Prefixes.some((p) => (k.code ?? '').startsWith(p))));
  const amox = allergies.find((a) => (a.code?.coding ?? []).some((c) => c.code === AMOXICILLIN));
  const reaction = amox?.reaction?.[0]?.manifestation?.[0]?.coding?.[0]?.display?.toLowerCase() ?? 'a reaction';

  const pick = pregnant
    ? { code: '309098', display: 'cefuroxime 500 MG Oral Tablet', mg: 500, perDay: 2, sig: '500 mg by mouth twice daily for 10 days', why: 'pregnant: doxycycline and fluoroquinolones avoided; cefuroxime has a side chain unlike amoxicillin\'s' }
    : !allergicTo('doxycycline')
      ? { code: '1649988', display: 'doxycycline hyclate 100 MG Oral Capsule', mg: 100, perDay: 2, sig: '100 mg by mouth twice daily for 7 days', why: 'IDSA 2012 alternative for penicillin allergy' }
      : { code: '199885', display: 'levofloxacin 500 MG Oral Tablet', mg: 500, perDay: 1, sig: '500 mg by mouth once daily for 7 days', why: 'doxycycline is on the allergy list; respiratory fluoroquinolone per IDSA 2012' };
  await fhir.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { coding: [{ system: RXNORM, code: pick.code, display: pick.display }], text: pick.display },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ coding: [{ system: SNOMED, code: '15805002', display: 'Acute sinusitis' }], text: 'Acute bacterial rhinosinusitis; amoxicillin allergy' }],
    dosageInstruction: [{
      text: `Take ${pick.sig}`,
      timing: { repeat: { frequency: pick.perDay, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
      doseAndRate: [{ doseQuantity: { value: pick.mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
    }],
  });
  const name = pick.display.split(' ')[0];
  await finish(`Amoxicillin is not appropriate: the chart lists an amoxicillin allergy (${reaction}${amox?.criticality === 'high' ? ', high criticality' : ''}). `
    + `Ordered ${name} ${pick.sig} instead (${pick.why}). ${active.length} active medications reviewed.`);
}
