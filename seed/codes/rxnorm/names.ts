// Drug names as whole words. A name is a sequence of lower-case word tokens; a text is read token by token and the
// longest name starting at each token wins ("insulin lispro protamine" is insulin lispro, not "lispro" and something
// else; "Exforge HCT" is three ingredients, not "Exforge"). Anything that is not a letter or digit separates words, so
// "lisinopril-HCTZ", "losartan/HCTZ" and "TMP-SMX" read as their parts and "ASA" never matches inside "sasa".

/** Lower-case word tokens: letters and digits; every other character separates words. */
export function nameTokens(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length > 0);
}

interface IndexedName {
  tokens: string[];
  /** Canonical ingredient names (lower case) the name stands for. */
  ingredients: string[];
  name: string;
}

/** An index from drug names (generic, salt, brand, abbreviation) to canonical ingredient names. */
export class DrugNameIndex {
  private readonly byFirstToken = new Map<string, IndexedName[]>();
  private readonly byKey = new Map<string, IndexedName>();

  /** Adds a name; the same name standing for different ingredients is an error in the table. */
  add(name: string, ingredients: readonly string[]): void {
    const tokens = nameTokens(name);
    if (tokens.length === 0) throw new Error(`drug name "${name}" has no words`);
    const key = tokens.join(' ');
    const wanted = [...new Set(ingredients.map((i) => i.toLowerCase()))];
    const known = this.byKey.get(key);
    if (known) {
      if ([...known.ingredients].sort().join('|') !== [...wanted].sort().join('|')) {
        throw new Error(`drug name "${name}" stands for ${wanted.join(' + ')} and ${known.ingredients.join(' + ')} ("${known.name}")`);
      }
      return;
    }
    const entry: IndexedName = { tokens, ingredients: wanted, name };
    this.byKey.set(key, entry);
    const list = this.byFirstToken.get(tokens[0]) ?? [];
    list.push(entry);
    list.sort((a, b) => b.tokens.length - a.tokens.length);
    this.byFirstToken.set(tokens[0], list);
  }

  /** The ingredients a whole name stands for (case and punctuation ignored), or undefined. */
  exact(name: string): string[] | undefined {
    return this.byKey.get(nameTokens(name).join(' '))?.ingredients;
  }

  /** The ingredients named anywhere in a text, in order of first mention. */
  find(text: string): string[] {
    const tokens = nameTokens(text);
    const found: string[] = [];
    for (let i = 0; i < tokens.length;) {
      const entry = this.byFirstToken.get(tokens[i])?.find((e) => e.tokens.every((t, k) => tokens[i + k] === t));
      if (!entry) {
        i++;
        continue;
      }
      for (const ingredient of entry.ingredients) if (!found.includes(ingredient)) found.push(ingredient);
      i += entry.tokens.length;
    }
    return found;
  }
}
