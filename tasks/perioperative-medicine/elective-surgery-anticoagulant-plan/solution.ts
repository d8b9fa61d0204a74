// Reference solution: reads the surgical order (procedure, date), the oral anticoagulant, age, sex, weight and
// creatinine (Cockcroft-Gault), the problem list (valve or AF, CHA2DS2-VASc), INR history, blood counts, allergies,
// procedures, the surgical visit and prior notes; then decides: days off the drug by drug, bleeding risk and CrCl;
// LMWH bridging only for warfarin with a mechanical mitral valve (dose by weight, frequency by CrCl); a PT/INR the day
// before surgery on warfarin; a note with the timeline, and the JSON answer. The anticoagulant order stays as it is.
import type { AllergyIntolerance, Condition, DocumentReference, Encounter, MedicationRequest, Observation, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import { BODY_WEIGHT, CREATININE, FACTOR_XA_INHIBITORS, HOLD_DAYS, ICD10CM, INR, LOINC, PROCEDURE_BLEEDING_RISK, RXNORM, SNOMED } from './facts.ts';

const codes = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.issued ?? '');
const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error').sort((a, b) => when(b) - when(a))[0];
const day = (date: string, offset: number) => new Date(Date.parse(`${date}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
const words = (c: Condition) => [c.code?.text, ...(c.code?.coding ?? []).map((x) => `${x.display ?? ''} ${x.code ?? ''}`)].join(' ');
const has = (conditions: Condition[], snomed: string[], text: RegExp) => conditions.some((c) => (c.code?.coding ?? []).some((x) => x.system === SNOMED && snomed.includes(x.code ?? '')) || text.test(words(c)));

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = (await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' }));
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const oac = active.find((o) => ingredientNamesOf(o.medicationCodeableConcept).some((n) => n === 'warfarin' || n.startsWith('dabigatran') || FACTOR_XA_INHIBITORS.includes(n)))!;
  const order = await fhir.read<MedicationRequest>('MedicationRequest', oac.id!);
  const ingredient = ingredientNamesOf(order.medicationCodeableConcept).find((n) => n === 'warfarin' || n.startsWith('dabigatran') || FACTOR_XA_INHIBITORS.includes(n))!;
  const drug = ingredient.startsWith('dabigatran') ? 'dabigatran' : ingredient;
  const services = await fhir.search<ServiceRequest>('ServiceRequest', { patient, status: 'active' });
  const planned = services.find((s) => (s.code?.coding ?? []).some((c) => c.system === SNOMED && PROCEDURE_BLEEDING_RISK[c.code ?? '']))!;
  const surgery = await fhir.read<ServiceRequest>('ServiceRequest', planned.id!);
  const procedureCode = surgery.code!.coding!.find((c) => c.system === SNOMED && PROCEDURE_BLEEDING_RISK[c.code ?? ''])!;
  const bleeding = PROCEDURE_BLEEDING_RISK[procedureCode.code!];
  const surgeryDate = surgery.occurrenceDateTime!.slice(0, 10);

  const creatinine = newest(await fhir.search<Observation>('Observation', { patient, code: codes(CREATININE), _sort: '-date', _count: 10 }))!;
  const weight = newest(await fhir.search<Observation>('Observation', { patient, code: codes(BODY_WEIGHT), _sort: '-date', _count: 10 }))!;
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|98979-8,${LOINC}|33914-3,${LOINC}|62238-1`, _sort: '-date', _count: 5 }));
  const inrs = await fhir.search<Observation>('Observation', { patient, code: codes(INR), _sort: '-date', _count: 10 });
  const hb = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|718-7`, _sort: '-date', _count: 3 }));
  const platelets = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|777-3`, _sort: '-date', _count: 3 }));
  const allergies = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  const procedures = await fhir.search<Procedure>('Procedure', { patient });
  const visits = await fhir.search<Encounter>('Encounter', { patient, _sort: '-date', _count: 5 });
  const priorNotes = await fhir.search<DocumentReference>('DocumentReference', { patient, _sort: '-date', _count: 5 });

  // Cockcroft-Gault with actual body weight.
  const born = new Date(`${person.birthDate}T00:00:00Z`);
  const at = new Date(now);
  const age = at.getUTCFullYear() - born.getUTCFullYear() - (at < new Date(Date.UTC(at.getUTCFullYear(), born.getUTCMonth(), born.getUTCDate())) ? 1 : 0);
  const kg = weight.valueQuantity!.value!;
  const cr = creatinine.valueQuantity!.value!;
  const female = person.gender === 'female';
  const crcl = Math.round(((140 - age) * kg) / (72 * cr) * (female ? 0.85 : 1));

  // Days off by drug, bleeding risk and CrCl.
  const holdDays = drug === 'warfarin' ? HOLD_DAYS.warfarin.any
    : drug === 'dabigatran' ? (crcl >= HOLD_DAYS.dabigatran.crclAtLeast ? HOLD_DAYS.dabigatran.normal : HOLD_DAYS.dabigatran.reduced)[bleeding]
      : HOLD_DAYS.factorXa[bleeding];
  const lastDose = day(surgeryDate, -(holdDays + 1));

  // Thromboembolic risk: a mechanical mitral valve on warfarin is bridged; AF is scored and not bridged.
  const valve = conditions.find((c) => (c.code?.coding ?? []).some((x) => x.system === ICD10CM && x.code === 'Z95.2') && /mechanical/i.test(words(c)) && /mitral/i.test(words(c)));
  const valveSurgery = procedures.find((p) => /mitral/i.test(`${p.code?.text ?? ''} ${(p.code?.coding ?? []).map((c) => c.display).join(' ')}`));
  const af = has(conditions, ['49436004'], /atrial fibrillation/i);
  const chads = !af ? undefined : (has(conditions, ['84114007'], /heart failure/i) ? 1 : 0) + (has(conditions, ['38341003', '59621000'], /hypertens/i) ? 1 : 0)
    + (age >= 75 ? 2 : age >= 65 ? 1 : 0) + (has(conditions, ['44054006', '73211009'], /diabetes/i) ? 1 : 0)
    + (has(conditions, ['230690007', '266257000'], /stroke|transient ischemic|\btia\b/i) ? 2 : 0)
    + (has(conditions, ['22298006', '399211009', '399957001'], /myocardial infarction|peripheral arter|aortic plaque/i) ? 1 : 0) + (female ? 1 : 0);
  const bridging = drug === 'warfarin' && valve !== undefined;
  const heparinAllergy = allergies.some((a) => /heparin|enoxaparin|lovenox/i.test(JSON.stringify(a.code ?? {})));

  const requester = { reference: task.requester.reference };
  const lines: string[] = [];
  if (bridging && !heparinAllergy) {
    // 1 mg/kg every 12 h at CrCl >= 30 (once daily below), rounded to 10 mg; from day -3 to the morning of day -1.
    const dose = Math.round(kg / 10) * 10;
    const perDay = crcl < 30 ? 1 : 2;
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester,
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: '67108', display: 'enoxaparin' }], text: `enoxaparin ${dose} mg subcutaneous (bridging)` },
      reasonCode: [{ text: 'Peri-operative bridging: mechanical mitral valve, warfarin interrupted' }],
      dosageInstruction: [{
        text: `${dose} mg subcutaneously every ${perDay === 2 ? 12 : 24} hours from ${day(surgeryDate, -3)}; last pre-op dose the morning of ${day(surgeryDate, -1)} (half the daily dose, 24 h before surgery)`,
        timing: { repeat: { frequency: perDay, period: 1, periodUnit: 'd', boundsPeriod: { start: day(surgeryDate, -3), end: day(surgeryDate, -1) } } },
        route: { coding: [{ system: SNOMED, code: '34206005', display: 'Subcutaneous route' }] },
        doseAndRate: [{ doseQuantity: { value: dose, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      }],
    });
    lines.push(`Bridging indicated (mechanical mitral valve): bridge with enoxaparin ${dose} mg SC every ${perDay === 2 ? 12 : 24} h (1 mg/kg, ${kg} kg, CrCl ${crcl}) starting ${day(surgeryDate, -3)}; last pre-op dose morning of ${day(surgeryDate, -1)} (half dose, 24 h before surgery). Resume enoxaparin 48-72 h after surgery once hemostasis is secure (high bleeding-risk procedure), until the INR is back in range.`);
  } else {
    lines.push(drug === 'warfarin'
      ? `No heparin bridging: AF with CHA2DS2-VASc ${chads}, no recent stroke/TIA and no mechanical valve (BRIDGE trial; CHEST 2022).`
      : `No bridging: ${drug} has a short half-life; heparin bridging is not recommended for DOAC interruption (CHEST 2022, PAUSE).`);
  }
  if (drug === 'warfarin') {
    await fhir.create<ServiceRequest>({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester,
      category: [{ coding: [{ system: SNOMED, code: '108252007', display: 'Laboratory procedure' }] }],
      code: { coding: [{ system: LOINC, code: '6301-6', display: 'INR in Platelet poor plasma by Coagulation assay' }], text: 'PT/INR' },
      occurrenceDateTime: `${day(surgeryDate, -1)}T08:00:00Z`, reasonCode: [{ text: 'Pre-operative INR after warfarin interruption' }],
      note: [{ text: 'If INR > 1.5, give vitamin K 1-2 mg orally and recheck the morning of surgery.' }],
    });
  }
  const latestInr = newest(inrs);
  const resume = drug === 'warfarin' ? 'Resume warfarin at the usual dose the evening of surgery or the next day if hemostasis is secure.'
    : `Resume ${drug} ${bleeding === 'high' ? '48-72 h' : '24 h'} after surgery once hemostasis is secure.`;
  const text = [
    'PERI-OPERATIVE ANTICOAGULATION PLAN',
    `Procedure: ${surgery.code?.text ?? procedureCode.display} on ${surgeryDate} (${bleeding} bleeding risk)${visits[0] ? `; seen in surgical clinic ${visits[0].period?.start?.slice(0, 10)}` : ''}.`,
    `Anticoagulant: ${order.medicationCodeableConcept?.text} - ${order.dosageInstruction?.[0]?.text ?? ''}. Indication: ${valve ? `${valve.code?.text}${valveSurgery ? ` (${valveSurgery.code?.text}, ${valveSurgery.performedDateTime})` : ''}` : `atrial fibrillation, CHA2DS2-VASc ${chads}`}.`,
    `Renal function: creatinine ${cr} mg/dL (${creatinine.effectiveDateTime?.slice(0, 10)}), weight ${kg} kg, age ${age}, ${female ? 'female' : 'male'}: Cockcroft-Gault CrCl ${crcl} mL/min${egfr ? ` (lab eGFR ${egfr.valueQuantity?.value} is not used for dosing)` : ''}.`,
    `Labs: Hb ${hb?.valueQuantity?.value ?? 'n/a'} g/dL, platelets ${platelets?.valueQuantity?.value ?? 'n/a'} x10^3/uL${latestInr ? `, latest INR ${latestInr.valueQuantity?.value} (${latestInr.effectiveDateTime?.slice(0, 10)})` : ''}. Allergies: ${allergies.length ? allergies.map((a) => a.code?.text ?? a.code?.coding?.[0]?.display).join(', ') : 'none recorded'}.`,
    `Interruption: last dose of ${drug} on ${lastDose} (${holdDays} full days off before surgery).`,
    ...lines,
    drug === 'warfarin' ? `PT/INR ordered for ${day(surgeryDate, -1)}; proceed if INR <= 1.4, vitamin K if > 1.5.` : `No pre-operative coagulation testing needed for ${drug}.`,
    resume,
    priorNotes.length ? `Reviewed ${priorNotes.length} prior note(s).` : '',
  ].filter(Boolean).join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Peri-operative anticoagulation plan', text }));
  await finish(JSON.stringify({ crClMlMin: crcl, lastDoseDate: lastDose, bridging, preopInr: drug === 'warfarin', holdDays, bleedingRisk: bleeding }));
}
