// Reference solutions. REST (default): find the active MDD problem-list entries, dedupe by patient, take each
// patient's PHQ-9 history and judge on the most recent score by effective time. Views (alternativeSolutions.views):
// the MDD problem-list entries and all PHQ-9 scores from two SQL on FHIR views run with ViewDefinition/$run, joined
// here; the entries and latest scores found are then read by id, as the evidence.
import type { Condition, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { referenceId } from '../../../harness/fhir-client.ts';
import { effectiveTime, runView, viewDefinition as view } from '../../../graders/lib/index.ts';

export default async function solution({ fhir, finish }: SolutionContext): Promise<void> {
  const conditions = await fhir.search<Condition>('Condition', { code: 'http://snomed.info/sct|370143000', 'clinical-status': 'active', category: 'problem-list-item', _count: 200 });
  await fhir.search('Condition', { code: 'http://hl7.org/fhir/sid/icd-10-cm|F33.1', 'clinical-status': 'active', category: 'problem-list-item', _count: 200 });
  const cohort = [...new Set(conditions.map((c) => referenceId(c.subject?.reference, 'Patient')).filter((p): p is string => !!p))].sort();
  const patients: { id: string; phq9: number; date: string }[] = [];
  for (const id of cohort) {
    await fhir.read('Patient', id);
    const scores = await fhir.search<Observation>('Observation', { patient: id, code: 'http://loinc.org|44261-6', _sort: '-date' });
    await fhir.search('MedicationRequest', { patient: id, status: 'active' });
    const latest = scores.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
      .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
    if (latest && latest.valueQuantity!.value! >= 10) patients.push({ id, phq9: latest.valueQuantity!.value!, date: effectiveTime(latest).slice(0, 10) });
  }
  await finish(JSON.stringify({ cohort: cohort.length, count: patients.length, patients }));
}

const EFFECTIVE = '(effective.ofType(dateTime) | effective.ofType(Period).start | effective.ofType(instant) | issued).first()';

export const alternativeSolutions = {
  views: async ({ fhir, finish }: SolutionContext): Promise<void> => {
    const mdd = await runView<{ id: string; patient: string | null }>(fhir, view('mdd', 'Condition', [['id', 'getResourceKey()'], ['patient', 'subject.getReferenceKey(Patient)']], [
      "code.coding.where((system = 'http://snomed.info/sct' and code = '370143000') or (system = 'http://hl7.org/fhir/sid/icd-10-cm' and code = 'F33.1')).exists()",
      "category.coding.where(code = 'problem-list-item').exists()",
      "clinicalStatus.coding.where(code = 'active').exists()",
      "verificationStatus.coding.where(code = 'entered-in-error').empty()",
    ]));
    const phq9 = await runView<{ id: string; patient: string; value: number; effective: string }>(fhir, view('phq9', 'Observation', [
      ['id', 'getResourceKey()'], ['patient', 'subject.getReferenceKey(Patient)'], ['value', 'value.ofType(Quantity).value', 'decimal'], ['effective', EFFECTIVE],
    ], [
      "code.coding.where(system = 'http://loinc.org' and code = '44261-6').exists()",
      "status != 'entered-in-error' and status != 'cancelled'",
      'value.ofType(Quantity).value.exists()',
    ]));
    const cohort = [...new Set(mdd.map((c) => c.patient).filter((p): p is string => !!p))].sort();
    const latest = new Map<string, { id: string; t: number; value: number; effective: string }>();
    for (const r of phq9) {
      const t = Date.parse(r.effective);
      const seen = latest.get(r.patient);
      if (!seen || t > seen.t) latest.set(r.patient, { id: r.id, t, value: r.value, effective: r.effective });
    }
    // The views found the entries and scores; open each one cited, as a clinician would.
    for (const c of mdd.filter((c) => c.patient)) await fhir.read('Condition', c.id);
    const patients: { id: string; phq9: number; date: string }[] = [];
    for (const id of cohort) {
      const l = latest.get(id);
      if (!l) continue;
      await fhir.read('Observation', l.id);
      if (l.value >= 10) patients.push({ id, phq9: l.value, date: l.effective.slice(0, 10) });
    }
    await finish(JSON.stringify({ cohort: cohort.length, count: patients.length, patients }));
  },
};
