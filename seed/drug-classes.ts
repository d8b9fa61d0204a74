// Drug classes the generator reconciles against and the coherence checker judges by (RxNorm ingredient RXCUIs, as
// seed/codes/rxnorm holds them). The generator cannot import the graders' class table (graders sit above seed in the
// layers), so the few classes the population's own coherence needs are named here, once, for both.

/** ACE inhibitors [VSAC ACE Inhibitor Ingredient]. */
export const ACE_INHIBITORS: ReadonlySet<string> = new Set(['29046', '3827', '35296', '18867', '1998', '35208', '50166', '54552', '38454', '30131']);
/** Angiotensin receptor blockers, and sacubitril (given only with valsartan: the ARNI counts with the ARBs). */
export const ARBS: ReadonlySet<string> = new Set(['52175', '69749', '83818', '214354', '321064', '73494', '1091643', '83515', '1656328']);
/** Beta blockers [VSAC Beta Blocker Therapy Ingredient]. */
export const BETA_BLOCKERS: ReadonlySet<string> = new Set(['6918', '20352', '19484', '1202', '8787', '31555', '6185', '7226', '10600']);
/** P2Y12 inhibitors: clopidogrel, prasugrel, ticagrelor. */
export const P2Y12_INHIBITORS: ReadonlySet<string> = new Set(['32968', '613391', '1116632']);
/**
 * Antiretrovirals (a fixed-dose combination counts each of its ingredients): dolutegravir, lamivudine, abacavir,
 * emtricitabine. Extend as the vocabulary gains antiretrovirals.
 */
export const ANTIRETROVIRALS: ReadonlySet<string> = new Set(['1433868', '68244', '190521', '276237']);
/** Lithium (the vocabulary holds lithium carbonate as its ingredient). */
export const LITHIUM: ReadonlySet<string> = new Set(['42351', '6448']);

const hasAny = (ingredients: readonly string[], cls: ReadonlySet<string>) => ingredients.some((i) => cls.has(i));

/**
 * Why two drugs (by ingredients) must not be active together: the same ingredient twice, an ACE inhibitor with an
 * ARB (ONTARGET, VA NEPHRON-D: no benefit, more hyperkalaemia and AKI), or two beta blockers. Undefined when they may.
 */
export function therapyClash(a: readonly string[], b: readonly string[]): 'same-ingredient' | 'ace-arb' | 'two-beta-blockers' | undefined {
  if (a.some((x) => b.includes(x))) return 'same-ingredient';
  if ((hasAny(a, ACE_INHIBITORS) && hasAny(b, ARBS)) || (hasAny(a, ARBS) && hasAny(b, ACE_INHIBITORS))) return 'ace-arb';
  if (hasAny(a, BETA_BLOCKERS) && hasAny(b, BETA_BLOCKERS)) return 'two-beta-blockers';
  return undefined;
}
