// Issue 13: every drug a task names (its facts, and the members of the drug classes it names) and every brand of those
// drugs is found by the agent's terminology search - the `terminology_search` tool and the RxNorm implicit value set's
// $expand - with an RxNorm code, which $lookup then knows. The drugs are derived from the data the graders use, so a
// task or class that adds a drug without a code fails here. Drugs that cannot be coded yet are listed below, each with
// its reason; the list must match the failures exactly, so a drug that gains a code must leave it.
import t from 'tap';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Parameters, ValueSet } from '@medplum/fhirtypes';
import { CLASS_GROUPS, DRUG_CLASSES, KNOWN_INGREDIENTS, expandClass } from '../../graders/lib/drug-classes.ts';
import { RXNORM, RXNORM_CONCEPTS, RXNORM_DRUG_NAMES, rxcuiOfIngredient } from '../../seed/codes/rxnorm.ts';
import { BRAND_CONCEPTS, BRAND_NAMES, UNCODED_INGREDIENTS } from '../../seed/codes/rxnorm/brands.ts';
import { FORMULARY } from '../../seed/codes/formulary.ts';
import { startServer } from '../server/test-server.ts';

const TASKS = join(import.meta.dirname, '../../tasks');

// --- Known exceptions --------------------------------------------------------------------------------------------
/** Words graders match in free text that are parts of drug names or class words, not drug names (a task's names list).
 * None left: the tasks' name lists went to graders/lib (issue 13). */
const TEXT_FRAGMENTS: string[] = [];

const EXCEPTIONS = new Set(TEXT_FRAGMENTS);

// --- The drugs the tasks name ------------------------------------------------------------------------------------

const isClassId = (s: string): boolean => DRUG_CLASSES.has(s) || s in CLASS_GROUPS;
const known = (s: string): string[] | undefined =>
  RXNORM_DRUG_NAMES.exact(s) ?? (KNOWN_INGREDIENTS.includes(s.toLowerCase()) ? [s.toLowerCase()] : undefined);
/** A lower-case name of one token ("zafirlukast", "l-thyroxine"): the shape of an entry of a task's drug list. */
const singleToken = (s: string): boolean => /^[a-z][a-z0-9-]*$/.test(s);

/**
 * Drug names in one task's exported facts, as canonical ingredient names: class ids expand to their members; a name
 * the RxNorm vocabulary or the class table knows (generic, brand, shorthand) gives its ingredients; and in a list of single words that names at least one known drug, every other word
 * is taken as a drug name too (NOT_NEXT_STEP's "omalizumab" beside "montelukast") - which is how drugs the vocabulary
 * lacks are caught.
 */
function drugsInFacts(value: unknown, found: Set<string>): void {
  if (typeof value === 'string') {
    if (isClassId(value)) for (const id of expandClass(value)) for (const i of DRUG_CLASSES.get(id)!.ingredients) found.add(i);
    else for (const ingredient of known(value) ?? []) found.add(ingredient.toLowerCase());
    return;
  }
  if (Array.isArray(value)) {
    if (value.length > 1 && value.every((v) => typeof v === 'string' && singleToken(v)) && value.some((v) => known(v as string))) {
      for (const v of value as string[]) if (!isClassId(v) && !known(v)) found.add(v);
    }
    for (const v of value) drugsInFacts(v, found);
    return;
  }
  if (value && typeof value === 'object' && !(value instanceof RegExp)) {
    for (const [key, v] of Object.entries(value)) {
      drugsInFacts(key, found);
      drugsInFacts(v, found);
    }
  }
}

async function taskDrugs(): Promise<Map<string, string[]>> {
  const byDrug = new Map<string, string[]>();
  for (const specialty of readdirSync(TASKS)) {
    if (!statSync(join(TASKS, specialty)).isDirectory()) continue;
    for (const task of readdirSync(join(TASKS, specialty))) {
      const facts = join(TASKS, specialty, task, 'facts.ts');
      if (!statSync(join(TASKS, specialty, task)).isDirectory()) continue;
      const found = new Set<string>();
      drugsInFacts(await import(pathToFileURL(facts).href), found);
      for (const drug of found) byDrug.set(drug, [...(byDrug.get(drug) ?? []), task]);
    }
  }
  return byDrug;
}

/** Every brand the vocabulary knows (BN concepts, name-only brands, brands of uncoded ingredients) -> its ingredients. */
function allBrands(): Map<string, string[]> {
  const brands = new Map<string, string[]>();
  for (const b of BRAND_CONCEPTS) brands.set(b.name, b.ingredients);
  for (const [name, ingredients] of Object.entries(BRAND_NAMES)) brands.set(name, ingredients);
  for (const [ingredient, names] of Object.entries(UNCODED_INGREDIENTS)) for (const name of names) brands.set(name, [ingredient]);
  return brands;
}

// --- The checks ---------------------------------------------------------------------------------------------------

/** The IN RXCUI a drug name stands for in the vocabulary ("dabigatran" -> dabigatran etexilate), if it has one. */
function ingredientCode(name: string): string | undefined {
  const ingredients = RXNORM_DRUG_NAMES.exact(name) ?? [name];
  return ingredients.length === 1 ? rxcuiOfIngredient(ingredients[0]) : undefined;
}

/** Ingredient RXCUIs the returned RxNorm codes stand for. */
function ingredientsOfMatches(codes: string[]): Set<string> {
  return new Set(codes.flatMap((code) => RXNORM_CONCEPTS[code]?.ingredients ?? []));
}

t.test('every drug the tasks name, and every brand of those drugs, is found by terminology search with an RxNorm code', async (t) => {
  const { baseUrl } = await startServer(t);
  const root = baseUrl.replace(/\/fhir$/, '');
  const session = await fetch(`${root}/gym/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(session.status, 201, 'a gym session');
  const { id } = await session.json() as { id: string };

  /** RxNorm codes of the `terminology_search` tool, restricted to RxNorm as an agent would ask. */
  const toolSearch = async (query: string, system = RXNORM.system): Promise<string[]> => {
    // RxNorm as an agent would ask; the formulary through the tool's default search over every chart code system.
    const args = system === RXNORM.system ? { query, system, count: 100 } : { query, count: 100 };
    const res = await fetch(`${root}/gym/sessions/${id}/tools/terminology_search`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args),
    });
    const body = await res.json() as { text: string; isError: boolean };
    if (body.isError) return [];
    return (JSON.parse(body.text).matches as { system: string; code: string }[]).filter((m) => m.system === system).map((m) => m.code);
  };
  /** RxNorm codes of `ValueSet/$expand` on the implicit all-codes value set (FHIR R4 4.8.8) with a filter. */
  const expand = async (filter: string, system = RXNORM.system): Promise<string[]> => {
    const url = `${baseUrl}/ValueSet/$expand?${new URLSearchParams({ url: `${system}?fhir_vs`, filter, count: '100' })}`;
    const res = await fetch(url);
    if (res.status !== 200) return [];
    return ((await res.json() as ValueSet).expansion?.contains ?? []).filter((c) => c.system === system).map((c) => c.code!);
  };
  /** The display `CodeSystem/$lookup` gives an RxNorm code, or undefined when the server does not know it. */
  const lookup = async (code: string, system = RXNORM.system): Promise<string | undefined> => {
    const res = await fetch(`${baseUrl}/CodeSystem/$lookup?${new URLSearchParams({ system, code })}`);
    if (res.status !== 200) return undefined;
    return (await res.json() as Parameters).parameter?.find((p) => p.name === 'display')?.valueString;
  };

  const drugs = await taskDrugs();
  t.ok(drugs.size > 100, `${drugs.size} drugs named by the tasks`);
  for (const expected of ['patiromer', 'sodium zirconium cyclosilicate', 'rimegepant', 'erenumab', 'tiotropium', 'revefenacin', 'omalizumab']) {
    t.ok(drugs.has(expected), `${expected} is among them (derived, not listed)`);
  }

  const failures = new Map<string, string>();
  for (const [drug, tasks] of [...drugs].sort(([a], [b]) => a.localeCompare(b))) {
    const code = ingredientCode(drug);
    if (!code) {
      // Known by name only (UNCODED_INGREDIENTS, with the reason there): served from the local formulary, never an
      // invented RXCUI; found by the same tool, by $expand of the formulary and by $lookup.
      if (!(drug in FORMULARY.concepts)) {
        failures.set(drug, `no RxNorm ingredient code and not in the local formulary (named by ${tasks.join(', ')})`);
        continue;
      }
      const [byTool, byExpand, display] = await Promise.all([toolSearch(drug, FORMULARY.system), expand(drug, FORMULARY.system), lookup(drug, FORMULARY.system)]);
      const missing = [byTool.includes(drug) ? '' : 'terminology_search', byExpand.includes(drug) ? '' : '$expand', display ? '' : '$lookup'].filter(Boolean);
      if (missing.length) failures.set(drug, `formulary code ${drug} not returned by ${missing.join(', ')}`);
      continue;
    }
    const [byTool, byExpand, display] = await Promise.all([toolSearch(drug), expand(drug), lookup(code)]);
    const missing = [byTool.includes(code) ? '' : 'terminology_search', byExpand.includes(code) ? '' : '$expand', display ? '' : '$lookup'].filter(Boolean);
    if (missing.length) failures.set(drug, `${code} not returned by ${missing.join(', ')}`);
  }

  // Brands: by brand name, the returned codes must stand for every ingredient of the brand (a BN concept, or the
  // ingredients that carry a name-only brand as a synonym); a brand of a drug known by name only (Qulipta) is found in
  // the local formulary under its ingredient.
  const brandFailures: string[] = [];
  let brandsChecked = 0;
  for (const [brand, ingredients] of allBrands()) {
    if (!ingredients.some((i) => drugs.has(i.toLowerCase()))) continue;
    if (ingredients.some((i) => EXCEPTIONS.has(i.toLowerCase()))) continue;
    brandsChecked++;
    if (ingredients.every((i) => i in UNCODED_INGREDIENTS)) {
      const [byTool, byExpand] = await Promise.all([toolSearch(brand, FORMULARY.system), expand(brand, FORMULARY.system)]);
      for (const [path, codes] of [['terminology_search', byTool], ['$expand', byExpand]] as const) {
        if (ingredients.some((i) => !codes.includes(i))) brandFailures.push(`${brand} (${ingredients.join(' + ')}) by ${path} in the formulary: ${codes.join(', ') || 'nothing'}`);
      }
      continue;
    }
    const wanted = ingredients.map((i) => rxcuiOfIngredient(i));
    const [byTool, byExpand] = await Promise.all([toolSearch(brand), expand(brand)]);
    for (const [path, codes] of [['terminology_search', byTool], ['$expand', byExpand]] as const) {
      const covered = ingredientsOfMatches(codes);
      if (wanted.some((w) => !w || !covered.has(w))) brandFailures.push(`${brand} (${ingredients.join(' + ')}) by ${path}: ${codes.slice(0, 5).join(', ') || 'nothing'}`);
    }
  }
  t.ok(brandsChecked > 100, `${brandsChecked} brands checked`);
  t.same(brandFailures, [], 'every brand of a task drug is found by its brand name with RxNorm codes of its ingredients');

  const unexpected = [...failures].filter(([drug]) => !EXCEPTIONS.has(drug)).map(([drug, why]) => `${drug}: ${why}`);
  t.same(unexpected, [], 'every drug a task names is found by name with its RxNorm ingredient code');
  const stale = [...EXCEPTIONS].filter((drug) => !failures.has(drug)).sort();
  t.same(stale, [], 'no known exception is found after all (or is no longer named by a task): take it off the list');
});

t.test('the local formulary holds only drugs the tasks name, each kept uncoded with its reason', async (t) => {
  const drugs = await taskDrugs();
  t.same(Object.keys(UNCODED_INGREDIENTS).filter((u) => !drugs.has(u)).sort(), [], 'every uncoded ingredient is named by a task');
  t.same(Object.keys(FORMULARY.concepts).sort(), Object.keys(UNCODED_INGREDIENTS).sort(), 'the formulary is the uncoded ingredients');
  t.notOk('atogepant' in RXNORM_CONCEPTS, 'no RXCUI is invented for them');
});
