import t from 'tap';
import { StatsCollector, datasetCard } from '../../seed/stats.ts';
import type { GeneratedBatch } from '../../seed/generate.ts';

t.test('the card counts patients, resources per type and prevalence by band and sex', async (t) => {
  const c = new StatsCollector();
  const batch = (id: string, age: number, sex: 'male' | 'female', conditions: string[]): GeneratedBatch => ({
    resources: [{ resourceType: 'Patient', id }, { resourceType: 'Observation', id: `${id}-o`, status: 'final', code: {} }],
    patient: { id, age, sex, conditions },
  });
  c.add({ resources: [{ resourceType: 'Organization', id: 'org' }] });
  c.add(batch('a', 50, 'female', ['diabetes', 'hypertension']));
  c.add(batch('b', 52, 'female', ['hypertension']));
  c.add(batch('c', 70, 'male', []));
  c.add(batch('d', 10, 'male', ['asthma']));
  const s = c.result();
  t.equal(s.patients, 4);
  t.equal(s.adults, 3);
  t.equal(s.resources, 9);
  t.same(s.resourcesPerType, { Observation: 4, Organization: 1, Patient: 4 });
  t.same(s.conditions.hypertension, { '45-64': { female: 2, male: 0 } });
  const card = datasetCard(s, { seed: 1, referenceDate: '2025-06-30T09:00:00Z', clean: false, mess: {} });
  // Hypertension: 2 of 2 women 45-64; 2 of 3 adults overall; published figure beside it.
  t.match(card, /\| Hypertension \| - \| 0\.0% \| - \| - \| 100\.0% \| - \| - \| 0\.0% \| 66\.7% \| 47\.0%/);
  t.match(card, /\| Asthma \| - \| 100\.0% \|/);
  // Each patient's chart goes through the coherence rules; the card reports each rule's counts.
  t.same(s.coherence['same-day-labs'], { checked: 0, violations: 0, labelled: 0 });
  t.match(card, /## Clinical coherence/);
  t.match(card, /\| No contradictory results of one analyte within 24 hours \| 0 \| 0 \| 0 \| 0 \|/);
});
