// findServiceRequest with order intent groups: the right order passes without a category; codes keep working; a
// category only fails when it names another kind of order.
import t from 'tap';
import type { ServiceRequest } from '@medplum/fhirtypes';
import { LOINC, SNOMED } from '../../../graders/lib/codings.ts';
import { CPT, ORDER_GROUPS } from '../../../graders/lib/order-groups.ts';
import { findServiceRequest, matchServiceRequest, SERVICE_CATEGORIES } from '../../../graders/lib/service-requests.ts';

const subject = { reference: 'Patient/p1' };
const order = (fields: Partial<ServiceRequest>): ServiceRequest => ({ resourceType: 'ServiceRequest', id: 's1', status: 'active', intent: 'order', subject, ...fields });

t.test('a mammogram by CPT 77067 with no category is the right order', async (t) => {
  const mammogram = order({ code: { coding: [{ system: CPT, code: '77067' }] } });
  const expected = { patient: 'p1', group: ORDER_GROUPS.screeningMammography, category: [SERVICE_CATEGORIES.imaging], status: ['active'] };
  const match = matchServiceRequest(mammogram, expected);
  t.ok(match.ok, match.mismatches.join('\n'));
  t.match(match.evidence.join('\n'), /screening mammogram/);
  const ultrasound = matchServiceRequest(order({ code: { coding: [{ system: LOINC, code: '24601-7', display: 'US Breast' }] } }), expected);
  t.notOk(ultrasound.ok, 'a diagnostic breast ultrasound is not a screening mammogram');
  t.match(ultrasound.mismatches.join('\n'), /expected screening mammogram/);
});

t.test('category is advisory: other systems pass, a contradicting SNOMED kind fails', async (t) => {
  const expected = { group: ORDER_GROUPS.potassium, category: [SERVICE_CATEGORIES.laboratory] };
  const k = { code: { coding: [{ system: LOINC, code: '6298-4' }] } };
  t.ok(matchServiceRequest(order({ ...k, category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] }] }), expected).ok);
  t.ok(matchServiceRequest(order({ ...k, category: [{ text: 'Lab' }] }), expected).ok);
  t.notOk(matchServiceRequest(order({ ...k, category: [{ coding: [{ system: SNOMED, code: '363679005' }] }] }), expected).ok, 'filed as imaging');
});

t.test('codes and groups together: either passes; codes alone behave as before', async (t) => {
  const renalPanel = order({ code: { coding: [{ system: LOINC, code: '24362-6' }] } });
  t.notOk(matchServiceRequest(renalPanel, { codes: [{ system: LOINC, codes: ['2823-3', '51990-0'] }] }).ok, 'legacy code list misses the renal panel');
  t.ok(matchServiceRequest(renalPanel, { codes: [{ system: LOINC, codes: ['2823-3'] }], group: ORDER_GROUPS.potassium }).ok);
  t.ok(matchServiceRequest(order({ code: { coding: [{ system: LOINC, code: '2823-3' }] } }), { codes: [{ system: LOINC, codes: ['2823-3'] }], group: ORDER_GROUPS.potassium }).ok);
  const sodium = order({ code: { coding: [{ system: LOINC, code: '2951-2' }] } });
  t.notOk(findServiceRequest([sodium], { group: [ORDER_GROUPS.potassium, ORDER_GROUPS.renalFunction] }).ok, 'sodium is neither');
  t.ok(findServiceRequest([sodium, renalPanel], { group: [ORDER_GROUPS.potassium, ORDER_GROUPS.renalFunction] }).ok, 'one of several orders');
});
