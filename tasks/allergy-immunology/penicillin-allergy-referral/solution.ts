// Reference solution: read the allergy list, the medication history (prior antibiotics), problems, encounters and
// notes; score PEN-FAST (Trubiano 2020) from the recorded amoxicillin reaction; refer to Allergy & Immunology for
// evaluation (a low-risk history: direct oral amoxicillin challenge; a severe one: skin testing first, per the
// AAAAI/ACAAI 2022 practice parameter). No antibiotic order; the allergy entry stays until tested.
import type { AllergyIntolerance, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { AMOXICILLIN, PEN_FAST, REACTION_WORDS, RXNORM, SEVERE_REACTIONS, SNOMED } from './facts.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const allergies = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 100 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 20 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 10 });
  await fhir.search('ServiceRequest', { patient, category: 'http://snomed.info/sct|386053000' });

  const amox = allergies.filter((a) => (a.code?.coding ?? []).some((c) => c.system === RXNORM && c.code === AMOXICILLIN))
    .sort((a, b) => Number(b.clinicalStatus?.coding?.[0]?.code === 'active') - Number(a.clinicalStatus?.coding?.[0]?.code === 'active'))[0];
  const onset = amox.onsetDateTime ?? amox.recordedDate!;
  const years = Math.floor((Date.parse(now) - Date.parse(onset)) / (365.25 * 86400_000));
  const reactionCodes = (amox.reaction ?? []).flatMap((r) => (r.manifestation ?? []).flatMap((m) => (m.coding ?? []).filter((c) => c.system === SNOMED).map((c) => c.code!)));
  const reaction = REACTION_WORDS[reactionCodes[0]]?.[0] ?? amox.reaction?.[0]?.manifestation?.[0]?.text ?? 'unknown reaction';
  const severe = reactionCodes.some((c) => SEVERE_REACTIONS.includes(c));
  // Treatment is assumed for anaphylaxis or angioedema (epinephrine, steroids) and not for hives that faded.
  const treated = severe;
  const penFast = (years <= PEN_FAST.recentYears ? PEN_FAST.recentPoints : 0) + (severe ? PEN_FAST.severePoints : 0) + (treated ? PEN_FAST.treatmentPoints : 0);
  const lowRisk = !severe && amox.criticality !== 'high' && penFast < PEN_FAST.lowRiskBelow;
  const plan = lowRisk
    ? 'Low-risk history: please evaluate for delabeling with a supervised direct oral amoxicillin challenge.'
    : 'High-risk history (severe immediate reaction): please evaluate with penicillin skin testing before any challenge.';
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: SNOMED, code: '386053000', display: 'Patient referral' }] }],
    code: { coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }], text: 'Referral to Allergy and Immunology: penicillin allergy evaluation' },
    performerType: { coding: [{ system: SNOMED, code: '408439002', display: 'Allergy - specialty' }], text: 'Allergy and Immunology' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonReference: [{ reference: `AllergyIntolerance/${amox.id}` }],
    reasonCode: [{ text: `Penicillin allergy evaluation: amoxicillin ${reaction} ${years} years ago (${onset.slice(0, 10)}), criticality ${amox.criticality}; PEN-FAST ${penFast}. ${plan}` }],
  });
  await finish(JSON.stringify({
    reaction, yearsSinceReaction: years, penFast, lowRisk,
    recommendation: `${plan} Referred to Allergy & Immunology; keep the allergy label and avoid penicillins until then.`,
  }));
}
