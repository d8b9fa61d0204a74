// Lab and vital-sign physiology: each value starts from a per-patient baseline drawn inside the lab's normal range,
// then passes through the modifiers diseases and drugs registered, so every module acts on the same body.
import { LABS, type LabDef } from '../codes/labs.ts';
import type { Rng } from '../random.ts';

export type Modifier = (t: number, value: number) => number;

export class Physiology {
  private readonly modifiers = new Map<string, Modifier[]>();
  private readonly baselines = new Map<string, number>();

  /** `female` is read when a baseline is first drawn: the patient's sex is set after the chart is made. */
  constructor(private readonly rng: Rng, private readonly female: () => boolean) {}

  /** Make a lab or vital respond to disease or treatment: modifiers apply in registration order. */
  modify(key: string, fn: Modifier): void {
    const list = this.modifiers.get(key) ?? [];
    list.push(fn);
    this.modifiers.set(key, list);
  }

  private baseline(key: string): number {
    let b = this.baselines.get(key);
    if (b === undefined) {
      const def = (LABS as Record<string, LabDef>)[key];
      const normal = def ? (this.female() && def.female ? def.female.normal : def.normal) : [0, 0];
      b = this.rng.normal(normal[0], normal[1] * 0.7);
      this.baselines.set(key, b);
    }
    return b;
  }

  /** The value the physiology predicts at t, without measurement noise. */
  expected(key: string, t: number): number {
    let v = this.baseline(key);
    for (const fn of this.modifiers.get(key) ?? []) v = fn(t, v);
    return v;
  }

  /** A measured value: expected plus measurement noise. */
  measure(key: string, t: number): number {
    const expected = this.expected(key, t);
    return expected + this.noise(key);
  }

  /** One draw of the measurement noise of a lab. */
  noise(key: string): number {
    const def = (LABS as Record<string, LabDef>)[key];
    const sd = def ? (def.normal[1] * 0.3) : 0;
    return this.rng.normal(0, sd);
  }
}
