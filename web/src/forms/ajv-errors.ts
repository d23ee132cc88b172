import { deepCompareStrict, validate, type OutputUnit, type Schema } from '@cfworker/json-schema';
import type { ErrorObject } from 'ajv';

/** cfworker's schemas by absolute URI, for `$ref`. */
export type Lookup = Record<string, Schema | boolean>;

/**
 * @cfworker/json-schema's findings in the shape and words of Ajv's (`must be
 * <= 50`, `must have required property 'title'`, instancePath `/items/0`),
 * so that rjsf shapes them exactly as it shaped Ajv's: the editor's messages
 * and the fields they land on stay what they were. Its units that only say a
 * sub-schema failed (properties, items, $ref, allOf…) are left out: the
 * failure inside is reported on its own, as Ajv reports it.
 */
export function toAjvErrors(units: OutputUnit[], data: unknown, schema: Schema, lookup: Lookup) {
  const errors: ErrorObject[] = [];
  const missing = new Map<string, string[]>();
  const dependencies = new Map<string, Dependency[]>();
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const instancePath = pointerOf(unit.instanceLocation);
    const value = valueAt(data, instancePath);
    if (unit.keyword === 'false') {
      // A `false` schema (its unit names no schema path): only under properties here, or a whole document.
      errors.push({
        keyword: 'false schema',
        instancePath,
        schemaPath: '#',
        params: {},
        message: 'boolean schema is false',
      });
      continue;
    }
    const schemaPath = pointerOf(unit.keywordLocation);
    const parentSchema = schemaAt(schema, lookup, schemaPath.split('/').slice(1, -1));
    const keyword = unit.keyword;
    const limit = parentSchema[keyword] as unknown;
    const base = { keyword, instancePath, schemaPath: `#${schemaPath}`, parentSchema, data: value };
    const error = (params: Record<string, unknown>, message: string) => errors.push({ ...base, params, message });
    switch (keyword) {
      case 'type':
        error({ type: limit }, `must be ${String(limit)}`);
        break;
      case 'const':
        error({ allowedValue: limit }, 'must be equal to constant');
        break;
      case 'enum':
        error({ allowedValues: limit }, 'must be equal to one of the allowed values');
        break;
      case 'not':
        error({}, 'must NOT be valid');
        break;
      case 'required': {
        // One unit per missing key, in the schema's order: the keys are taken from the data.
        const key = `${unit.instanceLocation} ${unit.keywordLocation}`;
        if (!missing.has(key)) missing.set(key, missingKeys(limit, value));
        const missingProperty = missing.get(key)!.shift() ?? '';
        error({ missingProperty }, `must have required property '${missingProperty}'`);
        break;
      }
      case 'dependencies':
      case 'dependentRequired': {
        // One unit per missing key, as for `required`.
        const key = `${unit.instanceLocation} ${unit.keywordLocation} deps`;
        if (!dependencies.has(key)) dependencies.set(key, missingDependencies(limit, value));
        const deps = dependencies.get(key)!.shift();
        if (!deps) break; // a schema dependency: its own failures follow.
        const list = deps.all.join(', ');
        error(
          { property: deps.property, missingProperty: deps.missing, depsCount: deps.all.length, deps: list },
          `must have ${deps.all.length === 1 ? 'property' : 'properties'} ${list} when property ${deps.property} is present`,
        );
        break;
      }
      case 'minProperties':
      case 'maxProperties':
        error(
          { limit },
          `must NOT have ${keyword === 'maxProperties' ? 'more' : 'fewer'} than ${String(limit)} properties`,
        );
        break;
      case 'minItems':
      case 'maxItems':
        error({ limit }, `must NOT have ${keyword === 'maxItems' ? 'more' : 'fewer'} than ${String(limit)} items`);
        break;
      case 'minLength':
      case 'maxLength':
        error(
          { limit },
          `must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${String(limit)} characters`,
        );
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        const comparison = { minimum: '>=', maximum: '<=', exclusiveMinimum: '>', exclusiveMaximum: '<' }[keyword];
        error({ comparison, limit }, `must be ${comparison} ${String(limit)}`);
        break;
      }
      case 'multipleOf':
        error({ multipleOf: limit }, `must be multiple of ${String(limit)}`);
        break;
      case 'pattern':
        error({ pattern: limit }, `must match pattern "${String(limit)}"`);
        break;
      case 'format':
        error({ format: limit }, `must match format "${String(limit)}"`);
        break;
      case 'uniqueItems': {
        const { i: at, j } = duplicatePair(value as unknown[], parentSchema.items);
        error({ i: at, j }, `must NOT have duplicate items (items ## ${j} and ${at} are identical)`);
        break;
      }
      case 'contains':
        error({ minContains: 1 }, 'must contain at least 1 valid item(s)');
        break;
      case 'anyOf':
        error({}, 'must match a schema in anyOf');
        break;
      case 'oneOf': {
        const passing = (limit as Schema[])
          .map((option, index) => (validate(value, option, '7', lookup).valid ? index : -1))
          .filter((index) => index >= 0);
        error(
          { passingSchemas: passing.length ? passing.slice(0, 2) : null },
          'must match exactly one schema in oneOf',
        );
        break;
      }
      case 'if': {
        const failingKeyword = validate(value, parentSchema.if as Schema, '7', lookup).valid ? 'then' : 'else';
        error({ failingKeyword }, `must match "${failingKeyword}" schema`);
        break;
      }
      case 'propertyNames':
        error({ propertyName: undefined }, 'property name must be valid');
        break;
      case 'additionalProperties':
        // Ajv says so of a `false` there; a schema there reports its own failures.
        if (limit === false) {
          const child = units[i + 1]!;
          i++; // the `false` unit of the extra property itself
          const additionalProperty = unescape(pointerOf(child.instanceLocation).split('/').pop() ?? '');
          error({ additionalProperty }, 'must NOT have additional properties');
        }
        break;
      case 'additionalItems':
        if (limit === false) {
          const len = (parentSchema.items as unknown[]).length;
          i++;
          error({ limit: len }, `must NOT have more than ${len} items`);
        }
        break;
      default:
      // properties, patternProperties, items, prefixItems, $ref, allOf, dependentSchemas, unevaluated…:
      // a sub-schema failed, and its own failures follow.
    }
  }
  return errors;
}

/** A unit's location (`#/a%20b/0`) as Ajv's JSON pointer (`/a b/0`, `~0` and `~1` escaped, no URI encoding). */
function pointerOf(location: string): string {
  return decodeURIComponent(location.replace(/^#/, ''));
}

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const segment of pointer.split('/').slice(1)) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[unescape(segment)] : undefined;
  }
  return node;
}

/** The schema object at a schema path, following `$ref` through cfworker's lookup as its validation did. */
export function schemaAt(root: Schema, lookup: Lookup, segments: string[]): Schema {
  let node: unknown = root;
  for (const segment of segments) {
    if (!node || typeof node !== 'object') return {};
    const schema = node as Schema;
    node =
      segment === '$ref'
        ? lookup[schema.__absolute_ref__ ?? schema.$ref ?? '']
        : (schema[unescape(segment)] as unknown);
  }
  return node && typeof node === 'object' ? node : {};
}

function missingKeys(required: unknown, value: unknown): string[] {
  const present = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return Array.isArray(required) ? (required as string[]).filter((key) => !Object.hasOwn(present, key)) : [];
}

interface Dependency {
  property: string;
  missing: string;
  all: string[];
}

/** Each key missing for a present property's dependencies (array form), in the schema's order. */
function missingDependencies(dependencies: unknown, value: unknown): Dependency[] {
  const present = (value ?? {}) as Record<string, unknown>;
  return Object.entries((dependencies ?? {}) as Record<string, unknown>).flatMap(([property, all]) =>
    Object.hasOwn(present, property) && Array.isArray(all)
      ? (all as string[]).filter((key) => !Object.hasOwn(present, key)).map((missing) => ({ property, missing, all }))
      : [],
  );
}

/**
 * The pair Ajv names, found as it finds it: items of a primitive type are
 * scanned from the end, each against the nearest equal one after it; others
 * from the end, each against the nearest equal one before it.
 */
function duplicatePair(items: unknown[], itemSchema: unknown): { i: number; j: number } {
  const same = (a: unknown, b: unknown) => a === b || deepCompareStrict(a, b);
  const types = [(itemSchema as Schema | undefined)?.type ?? []].flat();
  const primitive = types.length > 0 && !types.some((t) => t === 'object' || t === 'array');
  for (let i = items.length - 1; i >= 0; i--) {
    if (primitive) {
      for (let j = i + 1; j < items.length; j++) if (same(items[i], items[j])) return { i, j };
    } else {
      for (let j = i - 1; j >= 0; j--) if (same(items[i], items[j])) return { i, j };
    }
  }
  return { i: 0, j: 0 };
}
