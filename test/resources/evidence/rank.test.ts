// The evidence ranker over the fixture chart: what a topic or a question pulls in, in what order, and why.
import t from 'tap';
import { PatientChart, refOf } from '../../../resources/evidence/chart.ts';
import { rankEvidence, UnknownTopicError } from '../../../resources/evidence/rank.ts';
import { topicCatalog } from '../../../resources/evidence/topics.ts';
import { vocabulary } from '../../../resources/evidence/vocabulary.ts';
import { fixtureChart, NOTE_DATE } from '../../../graders/documentation/validation/fixture-chart.ts';

const chart = new PatientChart(fixtureChart);
const catalog = topicCatalog();
const vocab = vocabulary();
const rank = (query: Parameters<typeof rankEvidence>[1]) => rankEvidence(chart, { asOf: NOTE_DATE, ...query }, catalog, vocab);

t.test('topic groups are value sets expanded by the terminology service', async (t) => {
  for (const g of catalog.groups.values()) t.ok(g.codes.size > 0, `${g.name} has members`);
  t.ok(catalog.groups.get('http://ehr-gym.example/fhir/ValueSet/evidence-group-kidney-disease')!.codes.has('http://snomed.info/sct|431857002'), 'is-a filter reaches CKD stage 4');
  t.ok(catalog.topic('ckd-progression'));
  t.ok(catalog.topic('http://ehr-gym.example/fhir/ValueSet/evidence-topic-hyperkalemia'));
  t.same(catalog.topicsForQuestion('Is her kidney function declining?').map((x) => x.name), ['ckd-progression']);
});

t.test('CKD progression: the latest renal results and the CKD diagnosis first; older values below the latest', async (t) => {
  const { items } = rank({ topics: ['ckd-progression'] });
  const refs = items.map((i) => refOf(i.resource));
  const top = refs.slice(0, 6);
  for (const r of ['Observation/egfr-new', 'Observation/cr-new', 'Condition/ckd']) t.ok(top.includes(r), `${r} in the top 6`, { top });
  t.ok(refs.indexOf('Observation/egfr-new') < refs.indexOf('Observation/egfr-old'), 'latest eGFR above the older one');
  t.notOk(refs.includes('Observation/k-error'), 'entered-in-error results are not evidence');
  t.notOk(refs.includes('Observation/a1c') && refs.indexOf('Observation/a1c') < refs.indexOf('Observation/cr-new'));
  const egfr = items.find((i) => refOf(i.resource) === 'Observation/egfr-new')!;
  t.equal(egfr.reason.abnormal, 'L');
  t.equal(egfr.reason.trend?.direction, 'falling');
  t.equal(egfr.reason.seriesRank, 0);
  t.ok(egfr.reason.groups.some((g) => g.name === 'renal-function'));
  for (const i of items) t.ok(i.score > 0 && i.score <= 1, 'score in (0, 1]');
  t.same(items.map((i) => i.score), [...items.map((i) => i.score)].sort((a, b) => b - a), 'sorted by score');
});

t.test('anticoagulation bleeding risk reaches the anticoagulant, the low hemoglobin coded only locally and renal function', async (t) => {
  const refs = rank({ topics: ['anticoagulation-bleeding-risk'] }).items.slice(0, 10).map((i) => refOf(i.resource));
  for (const r of ['MedicationRequest/apixaban', 'Observation/hgb', 'Observation/cr-new']) t.ok(refs.includes(r), r, { refs });
  t.notOk(refs.includes('Observation/a1c'));
});

t.test('a question selects topics by keyword and boosts the concepts it names', async (t) => {
  const r = rank({ question: 'Why is the potassium high?' });
  t.same(r.topics.map((x) => x.name), ['hyperkalemia']);
  t.same(r.named, ['Potassium']);
  t.equal(refOf(r.items[0].resource), 'Observation/k-new');
  t.ok(r.items.some((i) => refOf(i.resource) === 'MedicationRequest/lisinopril'), 'an ACE inhibitor raises potassium');
  t.ok(r.items.some((i) => refOf(i.resource) === 'MedicationRequest/spironolactone'), 'a stopped potassium-raising drug is still evidence');
  const spiro = r.items.find((i) => refOf(i.resource) === 'MedicationRequest/spironolactone')!;
  const lis = r.items.find((i) => refOf(i.resource) === 'MedicationRequest/lisinopril')!;
  t.ok(spiro.score < lis.score, 'a stopped drug ranks below an active one');
});

t.test('unknown topics are errors; an unmatched question gives nothing', async (t) => {
  t.throws(() => rank({ topics: ['astrology'] }), { message: /Unknown evidence topic 'astrology'; known topics: .*ckd-progression/ });
  try { rank({ topics: ['astrology'] }); } catch (err) { t.ok(err instanceof UnknownTopicError); }
  t.same(rank({ question: 'What is the weather?' }).items, []);
});

t.test('free-text medications are found by the drug names in their text', async (t) => {
  const refs = rank({ topics: ['heart-failure'] }).items.map((i) => refOf(i.resource));
  t.ok(refs.includes('MedicationRequest/furosemide'));
});
