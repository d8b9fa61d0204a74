// Reads TSH by the local flowsheet code and LOINC (results carry either) and every levothyroxine order; when a change is due it stops the old order
// and writes a new text-only brand order in milligrams (0.125 mg), steps of 25 mcg; JSON answer with "yes"/"no".
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'flowsheet+LOINC TSH, stop + new text-only brand order dosed in mg, JSON with "no"/"yes" strings';

function mcgOf(order: MedicationRequest): number {
  const q = order.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
  if (q?.value !== undefined) return /^(mg|milligram)/i.test(q.code ?? q.unit ?? '') ? q.value * 1000 : q.value;
  return Number(/(\d+)\s*mcg/i.exec(order.dosageInstruction?.[0]?.text ?? '')?.[1]);
}

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  const tshs = (await http.search<Observation>('Observation', { patient, code: 'http://ehr-gym.example/fhir/CodeSystem/flowsheet|TSH,http://loinc.org|3016-3', _sort: '-date' }))
    .filter((o) => o.valueQuantity?.value !== undefined);
  const latest = tshs.sort((a, b) => (b.effectiveDateTime ?? b.issued ?? '').localeCompare(a.effectiveDateTime ?? a.issued ?? ''))[0]!;
  const tsh = latest.valueQuantity!.value!;
  const order = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }))
    .find((o) => /levothyroxine|synthroid|10582/i.test(JSON.stringify(o.medicationCodeableConcept)))!;
  const mcg = mcgOf(order);
  const next = tsh < 0.1 ? mcg - 25 : tsh > 4 ? mcg + 25 : mcg;
  if (next !== mcg) {
    const current = await http.read<MedicationRequest>('MedicationRequest', order.id!);
    await http.update({ ...current, id: order.id!, status: 'stopped', statusReason: { text: `TSH ${tsh}: dose changed` } });
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: `Synthroid ${next} mcg tablet` },
      dosageInstruction: [{ text: `${next / 1000} mg PO daily before breakfast`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        doseAndRate: [{ doseQuantity: { value: next / 1000, unit: 'milligram', system: 'http://unitsofmeasure.org', code: 'mg' } }] }],
    });
  }
  const verdict = next > mcg ? 'Under-replaced: increase levothyroxine' : next < mcg ? 'Over-replaced: reduce the dose, do not increase' : 'TSH at goal: no change to levothyroxine';
  const note = `TSH ${tsh} on ${latest.effectiveDateTime!.slice(0, 10)}. ${verdict}. Levothyroxine now ${next} mcg daily.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit({ tsh, tshDate: latest.effectiveDateTime!.slice(0, 10), increaseDose: next > mcg ? 'yes' : 'no', currentDoseMcg: mcg, newDoseMcg: next });
}
