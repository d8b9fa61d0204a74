import t from 'tap';
import { Rng } from '../../seed/random.ts';

t.test('the same text seed gives the same sequence; another seed another one', async (t) => {
  const a = new Rng('1/patient/0');
  const b = new Rng('1/patient/0');
  const c = new Rng('1/patient/1');
  const seqA = Array.from({ length: 20 }, () => a.next());
  const seqB = Array.from({ length: 20 }, () => b.next());
  const seqC = Array.from({ length: 20 }, () => c.next());
  t.same(seqA, seqB);
  t.not(JSON.stringify(seqA), JSON.stringify(seqC));
});

t.test('draws stay in their ranges and cover them', async (t) => {
  const rng = new Rng('ranges');
  const ints = new Set<number>();
  let outside = 0;
  for (let i = 0; i < 2000; i++) {
    const u = rng.next();
    if (!(u >= 0 && u < 1)) outside++;
    ints.add(rng.int(1, 3));
  }
  t.equal(outside, 0, 'next() stays in [0,1)');
  // Both ends of int() are inclusive.
  t.same([...ints].sort(), [1, 2, 3]);
  const picks = new Map<string, number>();
  for (let i = 0; i < 3000; i++) {
    const v = rng.weighted([['rare', 1], ['common', 9]] as const);
    picks.set(v, (picks.get(v) ?? 0) + 1);
  }
  t.ok(picks.get('common')! > 2400 && picks.get('rare')! > 150, `weights respected: ${[...picks]}`);
  let sum = 0;
  for (let i = 0; i < 5000; i++) sum += rng.normal(10, 2);
  t.ok(Math.abs(sum / 5000 - 10) < 0.15, 'normal() centred on its mean');
});
