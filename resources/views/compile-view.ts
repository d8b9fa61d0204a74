// Compiles a ViewDefinition once into a function from one resource to its rows (SQL on FHIR v2, "Processing
// Algorithm"): every FHIRPath expression is compiled here, never per resource. Pure and synchronous.
import fhirpath from 'fhirpath';
import r4 from 'fhirpath/fhir-context/r4';
import type { Resource } from '@medplum/fhirtypes';
import { badRequest, FhirError, unprocessable } from '../outcome.ts';
import { assertViewDefinition, type ViewColumn, type ViewDefinition, type ViewSelect } from './view-definition.ts';
import { viewFunctions } from './fhirpath-functions.ts';
import { compilePlainPath, FALLBACK } from '../fhirpath/fast-path.ts';

export type Row = Record<string, unknown>;

export interface ColumnInfo {
  name: string;
  type?: string;
  collection: boolean;
}

export interface CompiledView {
  /** The resource type the view reads. */
  resource: string;
  /** Output columns in order (SQL on FHIR "column ordering"). */
  columns: ColumnInfo[];
  /** The rows one resource contributes (none when it fails `where` or is of another type). */
  rowsOf(resource: Resource): Row[];
}

type Env = Record<string, unknown>;
type Path = (input: unknown, env: Env) => unknown[];

interface CompiledColumn {
  name: string;
  path: string;
  collection: boolean;
  evaluate: Path;
}

interface CompiledSelect {
  columns: CompiledColumn[];
  selects: CompiledSelect[];
  unionAll: CompiledSelect[];
  forEach?: Path;
  forEachOrNull?: Path;
  repeat?: Path[];
}

/** One focus of a select: the node, its %rowIndex, and whether it stands for an empty forEachOrNull. */
interface Focus {
  node: unknown;
  index: number;
  isNull: boolean;
}

const model = r4 as unknown as Parameters<typeof fhirpath.compile>[1];
const EMPTY: unknown[] = [];

function compilePath(expression: string, where: string, keepNodes: boolean): Path {
  try {
    const options = { userInvocationTable: viewFunctions, resolveInternalTypes: !keepNodes };
    const fn = fhirpath.compile(expression, model, options as Parameters<typeof fhirpath.compile>[2]) as unknown as Path;
    // Values (not nodes) of a simple path over a plain resource: evaluated directly, fhirpath.js only when the data
    // could make it answer differently (see fhirpath/fast-path.ts).
    const simple = keepNodes ? undefined : compilePlainPath(expression, viewFunctions);
    if (!simple) return fn;
    return (input, env) => {
      if (typeof input === 'object' && input !== null && Object.getPrototypeOf(input) === Object.prototype && 'resourceType' in input) {
        const result = simple(input);
        if (result !== FALLBACK) return result;
      }
      return fn(input, env);
    };
  } catch (err) {
    throw badRequest(`Invalid FHIRPath '${expression}' at ${where}: ${(err as Error).message.split('\n')[0]}`, [where]);
  }
}

/** Constants become %name variables with their FHIRPath types, so `birthDate = %bd` compares dates, not strings. */
function constantValue(constant: Record<string, unknown>): unknown {
  const key = Object.keys(constant).find((k) => k.startsWith('value'))!;
  const value = constant[key];
  const literal = (text: string) => compilePath(text, `constant ${String(constant.name)}`, true)({}, {})[0];
  switch (key) {
    case 'valueDate':
    case 'valueDateTime':
    case 'valueInstant':
      return typeof value === 'string' ? literal(`@${value}`) : value;
    case 'valueTime':
      return typeof value === 'string' ? literal(`@T${value}`) : value;
    default:
      return value;
  }
}

function compileSelect(select: ViewSelect, where: string): CompiledSelect {
  const out: CompiledSelect = {
    columns: (select.column ?? []).map((c: ViewColumn, i) => ({
      name: c.name,
      path: c.path,
      collection: c.collection === true,
      evaluate: compilePath(c.path, `${where}.column[${i}]`, false),
    })),
    selects: (select.select ?? []).map((s, i) => compileSelect(s, `${where}.select[${i}]`)),
    unionAll: (select.unionAll ?? []).map((s, i) => compileSelect(s, `${where}.unionAll[${i}]`)),
  };
  if (select.forEach !== undefined) out.forEach = compilePath(select.forEach, `${where}.forEach`, true);
  if (select.forEachOrNull !== undefined) out.forEachOrNull = compilePath(select.forEachOrNull, `${where}.forEachOrNull`, true);
  if (select.repeat !== undefined) out.repeat = select.repeat.map((p, i) => compilePath(p, `${where}.repeat[${i}]`, true));
  return out;
}

function columnInfo(select: ViewSelect): ColumnInfo[] {
  const own = (select.column ?? []).map((c) => ({ name: c.name, type: c.type, collection: c.collection === true }));
  const nested = (select.select ?? []).flatMap(columnInfo);
  const union = select.unionAll && select.unionAll.length > 0 ? columnInfo(select.unionAll[0]) : [];
  return [...own, ...nested, ...union];
}

export function compileView(view: unknown): CompiledView {
  assertViewDefinition(view);
  const definition = view as ViewDefinition;
  const constants: Env = {};
  for (const constant of definition.constant ?? []) constants[constant.name] = constantValue(constant);
  const root = compileSelect({ select: definition.select }, 'ViewDefinition');
  const filters = (definition.where ?? []).map((w, i) => ({ path: w.path, evaluate: compilePath(w.path, `ViewDefinition.where[${i}]`, false) }));
  const columns = definition.select.flatMap(columnInfo);
  const names = columns.map((c) => c.name);

  return {
    resource: definition.resource,
    columns,
    rowsOf(resource: Resource): Row[] {
      if (resource.resourceType !== definition.resource) return [];
      const env: Env = { ...constants, rowIndex: 0 };
      for (const filter of filters) {
        const result = guard(() => filter.evaluate(resource, env), filter.path);
        if (result.length === 0) return [];
        if (result.length > 1 || typeof result[0] !== 'boolean') {
          throw unprocessable(`where path '${filter.path}' must give a single boolean, not ${JSON.stringify(result).slice(0, 100)}`, ['ViewDefinition.where']);
        }
        if (result[0] !== true) return [];
      }
      const rows = selectRows(root, resource, env, false);
      // Every row carries every column, in view order, absent ones as null.
      return rows.map((partial) => {
        const row: Row = {};
        for (const name of names) row[name] = partial[name] ?? null;
        return row;
      });
    },
  };
}

function foci(select: CompiledSelect, node: unknown, env: Env, isNull: boolean): Focus[] {
  if (isNull) return [{ node: EMPTY, index: 0, isNull: true }];
  if (select.forEach) return guard(() => select.forEach!(node, env), 'forEach').map((n, index) => ({ node: n, index, isNull: false }));
  if (select.forEachOrNull) {
    const nodes = guard(() => select.forEachOrNull!(node, env), 'forEachOrNull');
    return nodes.length === 0 ? [{ node: EMPTY, index: 0, isNull: true }] : nodes.map((n, index) => ({ node: n, index, isNull: false }));
  }
  if (select.repeat) {
    const out: Focus[] = [];
    const visit = (parent: unknown) => {
      for (const path of select.repeat!) {
        for (const child of guard(() => path(parent, env), 'repeat')) {
          out.push({ node: child, index: out.length, isNull: false });
          visit(child);
        }
      }
    };
    visit(node);
    return out;
  }
  return [{ node, index: env.rowIndex as number, isNull: false }];
}

function selectRows(select: CompiledSelect, node: unknown, env: Env, isNull: boolean): Row[] {
  const out: Row[] = [];
  for (const focus of foci(select, node, env, isNull)) {
    const focusEnv = focus.index === env.rowIndex ? env : { ...env, rowIndex: focus.index };
    const own: Row = {};
    for (const column of select.columns) own[column.name] = columnValue(column, focus, focusEnv);
    let rows: Row[] = [own];
    for (const nested of select.selects) rows = product(rows, selectRows(nested, focus.node, focusEnv, focus.isNull));
    if (select.unionAll.length > 0) {
      // An empty forEachOrNull still gives one row, so only the first branch speaks for it.
      const branches = focus.isNull ? select.unionAll.slice(0, 1) : select.unionAll;
      rows = product(rows, branches.flatMap((branch) => selectRows(branch, focus.node, focusEnv, focus.isNull)));
    }
    out.push(...rows);
  }
  return out;
}

function product(left: Row[], right: Row[]): Row[] {
  if (right.length === 1) return left.map((l) => ({ ...l, ...right[0] }));
  const out: Row[] = [];
  for (const l of left) for (const r of right) out.push({ ...l, ...r });
  return out;
}

function columnValue(column: CompiledColumn, focus: Focus, env: Env): unknown {
  const values = guard(() => column.evaluate(focus.node, env), column.path);
  if (column.collection) return values;
  if (values.length > 1) {
    throw unprocessable(`Column '${column.name}' (path '${column.path}') gave ${values.length} values; set collection: true to allow that`, ['ViewDefinition.select']);
  }
  return values.length === 0 ? null : values[0];
}

/** FHIRPath evaluation failures (an undefined %constant, a type error) become a 422 naming the expression. */
function guard(fn: () => unknown[], path: string): unknown[] {
  try {
    return fn();
  } catch (err) {
    if (err instanceof FhirError) throw err;
    throw unprocessable(`FHIRPath '${path}' failed: ${(err as Error).message.split('\n')[0]}`);
  }
}
