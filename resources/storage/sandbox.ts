// A sandbox is the unit of isolation: a name, the layers it reads (its own first, then the read-only base) and a clock.
import { randomUUID } from 'node:crypto';

export const BASE_LAYER = 'base';
export const DEFAULT_SANDBOX = 'default';

export interface Clock {
  /** The current instant for this sandbox; every server-assigned time uses it. */
  now(): Date;
}

export const wallClock: Clock = { now: () => new Date() };

/**
 * A virtual clock that starts at a fixed instant and advances one millisecond per reading, so times assigned
 * in a sandbox are deterministic yet strictly increasing (history order and `_since` stay meaningful).
 */
export function virtualClock(start: Date): Clock {
  let tick = 0;
  return { now: () => new Date(start.getTime() + tick++) };
}

export interface Sandbox {
  readonly name: string;
  /** Layers read, most specific first. The base layer's own sandbox is just [base]. */
  readonly layers: readonly string[];
  readonly clock: Clock;
  /** Ids for server-assigned creates. */
  newId(): string;
  /** False for the base layer when reached over HTTP: the seeded population is read-only. */
  readonly writable: boolean;
}

export function makeSandbox(name: string, options: { clock?: Clock; writable?: boolean; newId?: () => string } = {}): Sandbox {
  return {
    name,
    layers: name === BASE_LAYER ? [BASE_LAYER] : [name, BASE_LAYER],
    clock: options.clock ?? wallClock,
    newId: options.newId ?? (() => randomUUID()),
    writable: options.writable ?? true,
  };
}
