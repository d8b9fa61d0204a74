// The ViewDefinition resource of SQL on FHIR v2 (https://sql-on-fhir.org/ig/StructureDefinition-ViewDefinition.html)
// as TypeScript types, and the structural checks a view must pass before it runs. Not an R4 resource type, so it is
// described here rather than by @medplum/fhirtypes.
import { badRequest } from '../outcome.ts';

export interface ViewColumn {
  name: string;
  path: string;
  description?: string;
  collection?: boolean;
  type?: string;
  tag?: { name: string; value: string }[];
}

export interface ViewSelect {
  column?: ViewColumn[];
  select?: ViewSelect[];
  forEach?: string;
  forEachOrNull?: string;
  repeat?: string[];
  unionAll?: ViewSelect[];
}

export interface ViewConstant {
  name: string;
  [valueX: string]: unknown;
}

export interface ViewDefinition {
  resourceType?: 'ViewDefinition';
  id?: string;
  url?: string;
  name?: string;
  title?: string;
  status?: string;
  resource: string;
  fhirVersion?: string[];
  constant?: ViewConstant[];
  select: ViewSelect[];
  where?: { path: string; description?: string }[];
}

const COLUMN_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const RESOURCE_TYPE = /^[A-Z][A-Za-z]*$/;

/** Structural checks (SQL on FHIR v2 "ViewDefinition" constraints); throws a 400 FhirError naming the element. */
export function assertViewDefinition(value: unknown): asserts value is ViewDefinition {
  if (!isObject(value)) throw badRequest('A ViewDefinition must be a JSON object');
  if (value.resourceType !== undefined && value.resourceType !== 'ViewDefinition') {
    throw badRequest(`resourceType '${String(value.resourceType)}' is not ViewDefinition`, ['ViewDefinition.resourceType']);
  }
  if (typeof value.resource !== 'string' || !RESOURCE_TYPE.test(value.resource)) {
    throw badRequest('ViewDefinition.resource must name a FHIR resource type', ['ViewDefinition.resource']);
  }
  if (!Array.isArray(value.select) || value.select.length === 0) {
    throw badRequest('ViewDefinition.select must hold at least one select', ['ViewDefinition.select']);
  }
  for (const [i, constant] of arrayOf(value.constant, 'ViewDefinition.constant').entries()) {
    const where = `ViewDefinition.constant[${i}]`;
    if (!isObject(constant) || typeof constant.name !== 'string' || !COLUMN_NAME.test(constant.name)) {
      throw badRequest(`${where}.name must be a name of letters, digits and _`, [where]);
    }
    if (Object.keys(constant).filter((k) => k.startsWith('value')).length !== 1) {
      throw badRequest(`Constant '${constant.name}' must have exactly one value[x]`, [where]);
    }
  }
  for (const [i, where] of arrayOf(value.where, 'ViewDefinition.where').entries()) {
    if (!isObject(where) || typeof where.path !== 'string') {
      throw badRequest('ViewDefinition.where.path must be a FHIRPath string', [`ViewDefinition.where[${i}]`]);
    }
  }
  const columns = value.select.flatMap((s, i) => selectColumns(s, `ViewDefinition.select[${i}]`));
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) throw badRequest(`Column name '${name}' is used more than once`, ['ViewDefinition.select']);
    seen.add(name);
  }
}

/** The column names a select contributes, in order; checks the select's shape on the way. */
export function selectColumns(select: unknown, where: string): string[] {
  if (!isObject(select)) throw badRequest(`${where} must be an object`, [where]);
  for (const key of ['forEach', 'forEachOrNull'] as const) {
    if (select[key] !== undefined && typeof select[key] !== 'string') throw badRequest(`${where}.${key} must be a FHIRPath string`, [`${where}.${key}`]);
  }
  const iterators = ['forEach', 'forEachOrNull', 'repeat'].filter((k) => select[k] !== undefined);
  if (iterators.length > 1) throw badRequest(`${where} may have only one of forEach, forEachOrNull and repeat`, [where]);
  if (select.repeat !== undefined && (!Array.isArray(select.repeat) || select.repeat.length === 0 || !select.repeat.every((p) => typeof p === 'string'))) {
    throw badRequest(`${where}.repeat must be a list of FHIRPath strings`, [`${where}.repeat`]);
  }
  const names: string[] = [];
  for (const [i, column] of arrayOf(select.column, `${where}.column`).entries()) {
    const at = `${where}.column[${i}]`;
    if (!isObject(column) || typeof column.name !== 'string' || !COLUMN_NAME.test(column.name)) {
      throw badRequest(`${at}.name must start with a letter and hold only letters, digits and _`, [at]);
    }
    if (typeof column.path !== 'string') throw badRequest(`${at}.path must be a FHIRPath string`, [at]);
    if (column.collection !== undefined && typeof column.collection !== 'boolean') throw badRequest(`${at}.collection must be a boolean`, [at]);
    names.push(column.name);
  }
  for (const [i, nested] of arrayOf(select.select, `${where}.select`).entries()) names.push(...selectColumns(nested, `${where}.select[${i}]`));
  const branches = arrayOf(select.unionAll, `${where}.unionAll`);
  if (branches.length > 0) {
    const first = selectColumns(branches[0], `${where}.unionAll[0]`);
    for (let i = 1; i < branches.length; i++) {
      const other = selectColumns(branches[i], `${where}.unionAll[${i}]`);
      if (other.join('\u0000') !== first.join('\u0000')) {
        throw badRequest(`Every unionAll branch must have the same columns in the same order (${first.join(', ')} vs ${other.join(', ')})`, [`${where}.unionAll[${i}]`]);
      }
    }
    names.push(...first);
  }
  return names;
}

function arrayOf(value: unknown, where: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest(`${where} must be an array`, [where]);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
