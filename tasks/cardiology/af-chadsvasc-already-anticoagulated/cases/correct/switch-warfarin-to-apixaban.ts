// A cardiologist who moves warfarin patients to a DOAC (2023 ACC/AHA/ACCP/HRS: DOACs preferred) and stops the
// aspirin of an anticoagulated patient with stable coronary disease (anticoagulant monotherapy, COR 1). Starts
// apixaban by the label's 2-of-3 rule, coded as the RxNorm ingredient with the dose in mg.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'switches warfarin to apixaban (label dose), stops aspirin once anticoagulated';

const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const has = (c: Condition[], pattern: RegExp) => c.some((x) => (x.code?.coding ?? []).some((k) => pattern.test(k.code ?? '')));

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.read<Patient>('Patient', patient);
  const conditions = (await http.search<Condition>('Condition', { patient })).filter((c) => c.verificationStatus?.coding?.[0]?.code !== 'entered-in-error');
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const newest = async (code: string) => (await http.search<Observation>('Observation', { patient, code: `http://loinc.org|${code}`, _sort: '-date', _count: 1 }))[0]?.valueQuantity;
  const born = new Date(p.birthDate!);
  const at = new Date(now);
  const age = at.getUTCFullYear() - born.getUTCFullYear() - (at.getUTCMonth() * 100 + at.getUTCDate() < born.getUTCMonth() * 100 + born.getUTCDate() ? 1 : 0);
  const female = p.gender === 'female';
  const score = (age >= 75 ? 2 : age >= 65 ? 1 : 0) + (female ? 1 : 0) + (has(conditions, /^I50|^84114007$/) ? 1 : 0) + (has(conditions, /^I1[0-5]|^59621000$|^38341003$/) ? 1 : 0)
    + (has(conditions, /^E1[013]|^44054006$|^46635009$/) ? 1 : 0) + (has(conditions, /^I63|^G45|^Z86\.73|^230690007$|^266257000$/) ? 2 : 0)
    + (has(conditions, /^I2[12]|^I25\.2|^I70|^I73\.9|^22298006$|^1755008$|^399957001$/) ? 1 : 0);
  const indicated = score >= (female ? 3 : 2);
  const text = (m: MedicationRequest) => JSON.stringify(m.medicationCodeableConcept).toLowerCase();
  const warfarin = meds.find((m) => text(m).includes('warfarin'));
  const doac = meds.find((m) => /apixaban|rivaroxaban|dabigatran|edoxaban/.test(text(m)));
  let anticoagulant = 'none';
  if (doac) anticoagulant = doac.medicationCodeableConcept?.text ?? 'DOAC';
  else if (indicated) {
    if (warfarin) await http.update({ ...warfarin, id: warfarin.id!, status: 'stopped', statusReason: { text: 'Switched to apixaban (DOAC preferred)' } });
    const kg = (await newest('29463-7'))?.value ?? 80;
    const crQ = await newest('2160-0');
    const cr = crQ ? (/mol/i.test(crQ.unit ?? '') ? crQ.value! / 88.4 : crQ.value!) : 1;
    const criteria = [age >= 80, kg <= 60, cr >= 1.5].filter(Boolean).length;
    const mg = criteria >= 2 ? 2.5 : 5;
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: RX, code: '1364430', display: 'apixaban' }], text: 'apixaban' },
      dosageInstruction: [{ text: `${mg} mg PO BID`, timing: { code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-GTSAbbreviation', code: 'BID' }] } },
        route: { text: 'oral' }, doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
    });
    anticoagulant = `apixaban ${mg} mg BID${warfarin ? ' (warfarin stopped)' : ''}`;
  }
  if (indicated) {
    for (const aspirin of meds.filter((m) => text(m).includes('aspirin'))) {
      await http.update({ ...aspirin, id: aspirin.id!, status: 'stopped', statusReason: { text: 'Anticoagulated: oral anticoagulant monotherapy for stable CAD' } });
    }
  }
  const note = `CHA2DS2-VASc score: ${score}. ${indicated ? `Recommend anticoagulation: ${anticoagulant}.` : 'Anticoagulation is not indicated at this score.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit({ chadsvasc: score, anticoagulate: indicated, anticoagulant });
}
