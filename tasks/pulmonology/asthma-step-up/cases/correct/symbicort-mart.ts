// A pulmonologist on GINA Track 1: when asthma is not well controlled despite adherence, switches to budesonide-
// formoterol maintenance and reliever therapy (Symbicort, text only; the fluticasone order put on hold, albuterol
// stopped because Symbicort is the reliever) and orders spirometry by CPT when the last one is over 2 years old.
// Otherwise changes nothing. JSON answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationDispense, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'Track 1: Symbicort MART (text), fluticasone on hold, albuterol stopped; CPT spirometry when old';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const act = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|82668-5' })).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]!;
  const fills = await http.search<MedicationDispense>('MedicationDispense', { patient });
  const spiro = (await http.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' })).sort((a, b) => (b.performedDateTime ?? '').localeCompare(a.performedDateTime ?? ''))[0]!;
  const score = act.valueQuantity!.value!;
  const since = Date.parse(now) - 180 * 86_400_000;
  const recentFills = fills.filter((f) => Date.parse(f.whenHandedOver ?? '') >= since && /fluticasone/i.test(JSON.stringify(f.medicationCodeableConcept)));
  const adherent = recentFills.length >= 5;
  const fev1 = /FEV1\s*(\d+)%/.exec(JSON.stringify(spiro.note))![1];
  const old = Date.parse(now) - Date.parse(spiro.performedDateTime!) > 2 * 365 * 86_400_000;
  const subject = { reference: `Patient/${patient}` };
  const stepUp = score <= 19 && adherent;
  const lines = [`ACT ${score}; ${recentFills.length} fluticasone fills in 6 months.`, old ? `Spirometry last done ${spiro.performedDateTime!.slice(0, 4)}: repeat ordered.` : `FEV1 ${fev1}% predicted (${spiro.performedDateTime!.slice(0, 10)}).`];
  if (stepUp) {
    for (const o of meds.filter((m) => /fluticasone/i.test(JSON.stringify(m.medicationCodeableConcept)))) await http.update({ ...o, id: o.id!, status: 'on-hold', note: [{ text: 'Replaced by budesonide-formoterol MART' }] });
    for (const o of meds.filter((m) => /albuterol/i.test(JSON.stringify(m.medicationCodeableConcept)))) await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'Symbicort is now the reliever (MART)' } });
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'Symbicort 160/4.5 mcg inhalation aerosol' }, dosageInstruction: [{ text: '2 puffs twice daily and 1 puff as needed for symptoms, maximum 12 puffs a day' }] });
    lines.push('Start Symbicort 160/4.5 as maintenance and reliever (MART), 2 puffs BID + 1 puff PRN.');
  } else {
    lines.push(score >= 20 ? 'Well controlled: continue fluticasone as is.' : 'Not controlled, but the fills show it is not being used daily: continue fluticasone every day with a spacer; recheck in a month.');
  }
  if (old) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '94060', display: 'Spirometry before and after bronchodilator' }] } });
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(lines.join('\n')).toString('base64') } }] });
  await submit(JSON.stringify({ wellControlled: score >= 20, plan: lines.slice(2).join(' ') }));
}
