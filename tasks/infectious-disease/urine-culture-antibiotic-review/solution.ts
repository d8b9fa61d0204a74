// Reference solution: reads the culture report and each of its results, the empiric order, allergies, problem list,
// medications, creatinine and weight (Cockcroft-Gault), the due date and QTc where relevant, the urinalysis and the
// visit; rules agents out by susceptibility, allergy, clearance, pregnancy and QT risk, reserves fluoroquinolones;
// keeps the empiric drug when it survives, otherwise stops it and orders the first preferred agent at the dose for
// the clearance; note and JSON.
import type { AllergyIntolerance, Condition, DiagnosticReport, Encounter, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { ingredientNamesInText, ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import { CREATININE, BODY_WEIGHT, CYSTITIS_AGENTS, ESTIMATED_DELIVERY_DATE, FIRST_TRIMESTER_LAST_DAY, LOINC, QTC, QTC_LIMIT_MS, QT_PROLONGING_DRUGS, RXNORM, SNOMED, URINE_CULTURE } from './facts.ts';

const codes = (sets: { system: string; codes: string[] }[]) => sets.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
const newest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error').sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0];
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));
const ANTIBACTERIAL = Object.values(CYSTITIS_AGENTS).flatMap((a) => a.ingredients);

/** Preferred order (IDSA 2010 first line, then beta-lactams, fosfomycin last for its lower efficacy; pregnancy: beta-lactams first). */
const PREFERENCE = ['nitrofurantoin', 'trimethoprim-sulfamethoxazole', 'cephalexin', 'cefpodoxime', 'amoxicillin-clavulanate', 'cefuroxime', 'cefdinir', 'cefadroxil', 'amoxicillin', 'fosfomycin', 'ciprofloxacin', 'levofloxacin'];
/** Products to order, by agent and per-dose strength. */
const PRODUCTS: Record<string, { rxcui: string; display: string; mg: number }[]> = {
  nitrofurantoin: [{ rxcui: '1648759', display: 'nitrofurantoin, macrocrystals 100 MG Oral Capsule', mg: 100 }],
  'trimethoprim-sulfamethoxazole': [{ rxcui: '198335', display: 'sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet', mg: 800 }, { rxcui: '198334', display: 'sulfamethoxazole 400 MG / trimethoprim 80 MG Oral Tablet', mg: 400 }],
  cephalexin: [{ rxcui: '309114', display: 'cephalexin 500 MG Oral Capsule', mg: 500 }, { rxcui: '309112', display: 'cephalexin 250 MG Oral Capsule', mg: 250 }],
  cefpodoxime: [{ rxcui: '309076', display: 'cefpodoxime 100 MG Oral Tablet', mg: 100 }],
  'amoxicillin-clavulanate': [{ rxcui: '562508', display: 'amoxicillin 875 MG / clavulanate 125 MG Oral Tablet', mg: 875 }],
  fosfomycin: [{ rxcui: '808917', display: 'fosfomycin 3000 MG Granules for Oral Solution', mg: 3000 }],
};

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const meds = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((m) => m.status === 'active');
  const allergies = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient, 'clinical-status': 'active' });
  const culture = (await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, code: `${URINE_CULTURE.system}|${URINE_CULTURE.code}`, _sort: '-date' }))
    .filter((r) => r.status === 'final').sort((a, b) => (b.issued ?? '').localeCompare(a.issued ?? ''))[0]!;
  const report = await fhir.read<DiagnosticReport>('DiagnosticReport', culture.id!);
  const results: Observation[] = [];
  for (const r of report.result ?? []) results.push(await fhir.read<Observation>('Observation', r.reference!.split('/')[1]));
  const organism = results.find((o) => o.valueCodeableConcept)?.valueCodeableConcept?.text ?? 'organism';
  const tested = results.filter((o) => o.interpretation?.length).map((o) => ({ drugs: ingredientNamesInText(o.code?.text ?? ''), sir: o.interpretation![0].coding![0].code!, label: (o.code?.text ?? '').replace(' [Susceptibility]', '') }));

  const empiric = meds.find((m) => ingredientNamesOf(m.medicationCodeableConcept).some((n) => ANTIBACTERIAL.includes(n)))!;
  const empiricOrder = await fhir.read<MedicationRequest>('MedicationRequest', empiric.id!);
  const empiricNames = ingredientNamesOf(empiricOrder.medicationCodeableConcept);
  const empiricAgent = Object.keys(CYSTITIS_AGENTS).find((k) => sameSet(CYSTITIS_AGENTS[k].ingredients, empiricNames));

  const creatinine = newest(await fhir.search<Observation>('Observation', { patient, code: codes(CREATININE), _sort: '-date', _count: 5 }))!;
  const weight = newest(await fhir.search<Observation>('Observation', { patient, code: codes(BODY_WEIGHT), _sort: '-date', _count: 5 }))!;
  const age = Math.floor((Date.parse(now) - Date.parse(`${person.birthDate}T00:00:00Z`)) / 31_557_600_000);
  const crcl = Math.round(((140 - age) * weight.valueQuantity!.value!) / (72 * creatinine.valueQuantity!.value!) * (person.gender === 'female' ? 0.85 : 1));
  const pregnant = conditions.some((c) => (c.code?.coding ?? []).some((x) => /^(Z33\.1|Z34|O\d)/.test(x.code ?? '') || x.code === '77386006'));
  const edd = pregnant ? newest(await fhir.search<Observation>('Observation', { patient, code: `${ESTIMATED_DELIVERY_DATE.system}|${ESTIMATED_DELIVERY_DATE.code}` })) : undefined;
  const gestationDays = edd?.valueDateTime ? Math.round(280 - (Date.parse(edd.valueDateTime) - Date.parse(now)) / 86_400_000) : undefined;
  const firstTrimester = pregnant && (gestationDays === undefined || gestationDays <= FIRST_TRIMESTER_LAST_DAY);
  const qtc = newest(await fhir.search<Observation>('Observation', { patient, code: codes(QTC), _sort: '-date', _count: 3 }));
  const qtDrugs = meds.flatMap((m) => ingredientNamesOf(m.medicationCodeableConcept)).filter((n) => QT_PROLONGING_DRUGS.includes(n));
  const qtRisk = (qtc?.valueQuantity?.value ?? 0) >= QTC_LIMIT_MS || qtDrugs.length > 0;
  const ua = newest(await fhir.search<Observation>('Observation', { patient, code: `${LOINC}|5799-2`, _sort: '-date', _count: 1 }));
  const visit = (await fhir.search<Encounter>('Encounter', { patient, _sort: '-date', _count: 1 }))[0];

  const allergyWords = allergies.filter((a) => a.type !== 'intolerance').map((a) => `${a.code?.text ?? ''} ${(a.code?.coding ?? []).map((c) => c.display).join(' ')}`.toLowerCase()).join(' ');
  const why = (name: string): string | undefined => {
    const a = CYSTITIS_AGENTS[name];
    const result = tested.find((t) => sameSet(t.drugs, a.testedAs));
    if (!result) return 'not tested';
    if (result.sir !== 'S') return `${result.label} ${result.sir === 'R' ? 'resistant' : 'intermediate'}`;
    if (a.avoidBelowCrcl && crcl < a.avoidBelowCrcl) return `CrCl ${crcl} mL/min`;
    if (pregnant && (a.pregnancy === 'avoid' || (a.pregnancy === 'avoid-first-trimester' && firstTrimester))) return 'first-trimester pregnancy';
    if (a.prolongsQt && qtRisk) return `QT prolongation (QTc ${qtc?.valueQuantity?.value ?? '?'} ms${qtDrugs.length ? `, ${qtDrugs.join(', ')}` : ''})`;
    if (a.ingredients.some((i) => allergyWords.includes(i)) || (/sulfa/.test(allergyWords) && a.ingredients.includes('sulfamethoxazole'))
      || (/penicillin|amoxicillin|ampicillin/.test(allergyWords) && a.ingredients.some((i) => ['amoxicillin', 'ampicillin'].includes(i)))) return 'allergy';
    return undefined;
  };
  const usable = PREFERENCE.filter((n) => !why(n));
  const nonReserve = usable.filter((n) => !CYSTITIS_AGENTS[n].reserve);
  const options = nonReserve.length ? nonReserve : usable;
  const ordered = pregnant ? [...options.filter((n) => !['nitrofurantoin', 'trimethoprim-sulfamethoxazole'].includes(n))] : options;
  const keep = empiricAgent !== undefined && options.includes(empiricAgent);
  const susceptibilityLine = tested.map((t) => `${t.label} ${t.sir}`).join(', ');
  let chosen = empiricAgent!;
  let doseText = empiricOrder.dosageInstruction?.[0]?.text ?? '';
  if (!keep) {
    chosen = ordered.find((n) => PRODUCTS[n])!;
    const regimen = CYSTITIS_AGENTS[chosen].regimens.find((r) => crcl >= r.crclAtLeast)!;
    const product = PRODUCTS[chosen].find((p) => p.mg >= regimen.mgPerDose[0] && p.mg <= regimen.mgPerDose[1]) ?? PRODUCTS[chosen][0];
    const perDay = regimen.timesPerDay[0];
    const days = chosen === 'fosfomycin' ? 1 : chosen === 'nitrofurantoin' ? 5 : chosen === 'trimethoprim-sulfamethoxazole' ? 3 : pregnant ? 7 : 5;
    await fhir.update<MedicationRequest>({ ...empiricOrder, id: empiricOrder.id!, status: 'stopped', statusReason: { text: `Changed after urine culture: ${why(empiricAgent ?? '') ?? 'not a cystitis agent'}` } });
    doseText = chosen === 'fosfomycin' ? '3 g by mouth once (single dose)' : `1 ${product.display.includes('Capsule') ? 'capsule' : 'tablet'} (${product.mg} mg) by mouth ${perDay === 1 ? 'once daily' : perDay === 2 ? 'twice daily' : `${perDay} times daily`} for ${days} days`;
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      medicationCodeableConcept: { coding: [{ system: RXNORM, code: product.rxcui, display: product.display }], text: product.display },
      reasonCode: [{ text: `Acute cystitis, ${organism}` }],
      dosageInstruction: [{
        text: doseText,
        timing: { repeat: { frequency: perDay, period: 1, periodUnit: 'd', boundsDuration: { value: days, unit: 'd', system: 'http://unitsofmeasure.org', code: 'd' } } },
        route: { coding: [{ system: SNOMED, code: '26643006', display: 'Oral route' }] },
        doseAndRate: [{ doseQuantity: { value: product.mg, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      }],
      dispenseRequest: { expectedSupplyDuration: { value: days, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' } },
    });
  }
  const text = [
    'URINE CULTURE REVIEW',
    `Visit ${visit?.period?.start?.slice(0, 10) ?? ''}: ${visit?.type?.[0]?.text ?? 'cystitis'}${ua ? `; leukocyte esterase ${ua.valueQuantity?.value ?? ''}` : ''}.`,
    `Culture (${report.issued?.slice(0, 10)}): ${report.conclusion ?? organism}. Susceptibility: ${susceptibilityLine}.`,
    `Patient factors: age ${age}, CrCl ${crcl} mL/min (Cockcroft-Gault); allergies: ${allergies.length ? allergies.map((a) => `${a.code?.text} (${a.reaction?.[0]?.description ?? ''})`).join('; ') : 'none'}${pregnant ? `; pregnant, ${gestationDays ?? '?'} days' gestation` : ''}${qtc ? `; QTc ${qtc.valueQuantity?.value} ms` : ''}${qtDrugs.length ? ` on ${qtDrugs.join(', ')}` : ''}.`,
    keep ? `Empiric ${empiricAgent} is active (susceptible) and appropriate for her: continue as prescribed (${doseText}).`
      : `Empiric ${empiricNames.join('/')} stopped: ${why(empiricAgent ?? '') ?? 'not a cystitis agent'}. Started ${chosen}: ${doseText}.`,
    `Agents ruled out: ${PREFERENCE.filter((n) => why(n)).map((n) => `${n} (${why(n)})`).join('; ')}${nonReserve.length ? '; fluoroquinolones reserved' : ''}.`,
    'Return precautions for fever or flank pain.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Urine culture review', text }));
  await finish(JSON.stringify({ organism, antibiotic: chosen, changed: !keep, creatinineClearance: crcl }));
}
