// The terminology tools: find codes by words ($expand with a filter) and look one code up ($lookup), so an agent can
// search the chart by code without coding from memory.
import type { AgentTool } from './tool.ts';
import { objectSchema } from './tool.ts';
import { compactExpansion, compactLookup, queryString, render } from './render.ts';
import { CVX, FLOWSHEET, FORMULARY, ICD10CM, LOINC, RXNORM, SNOMED } from '../../seed/codes/index.ts';

/** What `terminology_search` covers without a `system`: every clinical code system the chart uses, local codes too. */
export const searchedCodeSystems: readonly string[] = [LOINC, SNOMED, ICD10CM, RXNORM, FORMULARY, CVX, FLOWSHEET].map((t) => t.system);

export const terminologySearch: AgentTool = {
  definition: {
    name: 'terminology_search',
    description: 'Find codes by words before searching the chart by code: a word-prefix search over the displays and synonyms of ' +
      'LOINC, SNOMED CT, ICD-10-CM, RxNorm (and the local formulary for drugs without an RxNorm code), CVX and the local flowsheet codes (ValueSet/$expand with a filter), best matches first. ' +
      'Returns {total, matches: [{system, code, display}]}. Charts mix standard and local codes: search by every code you find, ' +
      'e.g. code "http://loinc.org|2823-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K".',
    parameters: objectSchema({
      query: { type: 'string', minLength: 1, maxLength: 200, description: 'Words to look for, e.g. "potassium", "hemoglobin a1c", "metformin 500"' },
      system: { type: 'string', minLength: 1, description: 'Only this code system, e.g. http://loinc.org, http://snomed.info/sct, http://www.nlm.nih.gov/research/umls/rxnorm' },
      count: { type: 'integer', minimum: 1, maximum: 100, description: 'How many matches to return (default 10)' },
    }, ['query']),
  },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) => {
    const count = (args.count as number | undefined) ?? 10;
    const response = args.system === undefined
      // Across systems: one $expand of an inline value set that includes each system whole (FHIR R4 4.9.18.1).
      ? await http({ method: 'POST', path: `${fhirBase}/ValueSet/$expand`, body: {
        resourceType: 'Parameters',
        parameter: [
          { name: 'valueSet', resource: { resourceType: 'ValueSet', status: 'active', compose: { include: searchedCodeSystems.map((system) => ({ system })) } } },
          { name: 'filter', valueString: args.query }, { name: 'count', valueInteger: count },
        ],
      } })
      // One system: its implicit all-codes value set, `[system]?fhir_vs` (FHIR R4 4.8.8).
      : await http({ method: 'GET', path: `${fhirBase}/ValueSet/$expand${queryString({ url: `${args.system as string}?fhir_vs`, filter: args.query, count })}` });
    return render(response, options, compactExpansion);
  },
};

export const terminologyLookup: AgentTool = {
  definition: {
    name: 'terminology_lookup',
    description: 'Look one code up (CodeSystem/$lookup): its display, synonyms and properties (LOINC component/system/scale, ' +
      'RxNorm ingredients, parents and children). Returns {system, code, name, display, synonyms, properties}.',
    parameters: objectSchema({
      system: { type: 'string', minLength: 1, description: 'Code system URL, e.g. http://loinc.org' },
      code: { type: 'string', minLength: 1, description: 'The code, e.g. 2823-3' },
    }, ['system', 'code']),
  },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) => {
    const response = await http({ method: 'GET', path: `${fhirBase}/CodeSystem/$lookup${queryString({ system: args.system, code: args.code })}` });
    return render(response, options, (body) => compactLookup(body, args.system as string, args.code as string));
  },
};
