// Drug allergies and intolerances (allergy specialty). Recorded first, so every later prescription avoids them:
// Chart.prescribe refuses an allergen ingredient and modules fall back to an alternative.
import type { AllergyIntolerance } from '@medplum/fhirtypes';
import type { ClinicalModule } from './module.ts';
import { HL7, RXNORM, SNOMED, codingOf } from '../codes/index.ts';
import { YEAR } from '../time.ts';

// Allergen ingredient RXCUI, reaction, kind. Penicillin-class (amoxicillin) labels are reported by ~10% of US
// patients, sulfonamide antibiotics ~3-4% (AAAAI); ACE-inhibitor angioedema and statin myalgia are less common.
const ALLERGENS: [rxcui: string, reaction: string, type: 'allergy' | 'intolerance', weight: number][] = [
  ['723', '126485001', 'allergy', 10],
  ['10180', '126485001', 'allergy', 4],
  ['2231', '126485001', 'allergy', 1],
  ['29046', '41291007', 'allergy', 0.5],
  ['5640', '422587007', 'intolerance', 1.5],
  ['83367', '422587007', 'intolerance', 1],
];

export const allergies: ClinicalModule = {
  key: 'allergies', title: 'Drug allergy', specialty: 'allergy',
  onset(chart) {
    const total = ALLERGENS.reduce((s, a) => s + a[3], 0) / 100;
    if (!chart.rng.chance(total)) return undefined;
    const count = chart.rng.chance(0.2) ? 2 : 1;
    for (let i = 0; i < count; i++) chart.allergies.add(chart.rng.weighted(ALLERGENS.map((a) => [a[0], a[3]] as const)));
    return chart.birth + chart.rng.between(0.2, 0.9) * (chart.ref - chart.birth);
  },
  run(chart, onset) {
    const visit = chart.visit(Math.max(onset, chart.ref - 6 * YEAR), { reason: 'Medication reaction history' });
    for (const rxcui of chart.allergies) {
      const def = ALLERGENS.find((a) => a[0] === rxcui)!;
      const severe = def[1] === '41291007' || chart.rng.chance(0.1);
      const resource: AllergyIntolerance = {
        resourceType: 'AllergyIntolerance', id: chart.newId('alg'),
        clinicalStatus: { coding: [codingOf(HL7.allergyClinical, 'active')] },
        verificationStatus: { coding: [codingOf(HL7.allergyVerification, 'confirmed')] },
        type: def[2], category: ['medication'], criticality: severe ? 'high' : 'low',
        code: { coding: [codingOf(RXNORM, rxcui)], text: RXNORM.concepts[rxcui] },
        patient: { reference: `Patient/${chart.patientId}` },
        encounter: { reference: `Encounter/${visit.id}` },
        onsetDateTime: chart.instant(onset), recordedDate: chart.instant(visit.start),
        recorder: { reference: `Practitioner/${visit.clinician.practitionerId}` },
        reaction: [{ manifestation: [{ coding: [codingOf(SNOMED, severe && def[1] !== '41291007' ? '39579001' : def[1])] }], severity: severe ? 'severe' : 'mild' }],
      };
      chart.resources.push(resource);
      visit.problems.push(`${def[2] === 'allergy' ? 'Allergy' : 'Intolerance'} to ${RXNORM.concepts[rxcui]}: ${SNOMED.concepts[resource.reaction![0].manifestation[0].coding![0].code!].toLowerCase()}.`);
    }
  },
};
