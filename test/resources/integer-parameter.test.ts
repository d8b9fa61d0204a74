import t from 'tap';
import { FhirError } from '../../resources/outcome.ts';
import { integerParameter } from '../../resources/integer-parameter.ts';

t.test('whole numbers within bounds, a 400 naming the parameter otherwise', async (t) => {
  t.equal(integerParameter('_count', undefined), undefined);
  t.equal(integerParameter('_count', ''), undefined);
  t.equal(integerParameter('_count', '12'), 12);
  t.equal(integerParameter('_count', 7), 7);
  t.equal(integerParameter('_count', '99999999999999999999'), Number.MAX_SAFE_INTEGER, 'past 2^53: capped, exact');
  t.equal(integerParameter('_count', '500', { max: 100, capAtMax: true }), 100);
  for (const bad of ['1e3', '1.5', 'abc', '-1', '0x10', 1.5]) {
    const err = t.throws(() => integerParameter('_count', bad)) as unknown as FhirError;
    t.equal(err.status, 400, String(bad));
    t.same(err.outcome.issue[0].expression, ['_count']);
  }
  t.throws(() => integerParameter('_limit', '0', { min: 1 }), 'below min');
  t.throws(() => integerParameter('count', '101', { max: 100 }), 'above max');
});
