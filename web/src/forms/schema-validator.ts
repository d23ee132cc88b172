import { dereference, validate, type Schema } from '@cfworker/json-schema';
import type {
  CustomValidator,
  ErrorTransformer,
  RJSFSchema,
  UiSchema,
  ValidationData,
  ValidatorType,
} from '@rjsf/utils';
// rjsf's own shaping of Ajv's errors (titles, paths, the error schema), the part of its Ajv
// validator that runs no Ajv: exported for validators that bring their own checks.
import processRawValidationErrors from '@rjsf/validator-ajv8/lib/processRawValidationErrors.js';
import type { ErrorObject } from 'ajv';
// The service's own sentences about a field (one source for both: the form says before
// sending what the service would say after).
import { fieldMessage } from '../../../words/field-messages';
import { schemaAt, toAjvErrors, type Lookup } from './ajv-errors';

type FormData = Record<string, unknown>;

/**
 * rjsf's validator without code generation: @cfworker/json-schema interprets
 * each schema, where Ajv compiled it into a function with `new Function`,
 * which the app's CSP (`script-src 'self'`, no 'unsafe-eval') refuses. Its
 * findings go through toAjvErrors and rjsf's own processing, so a field shows
 * the message it showed with Ajv, worded as the service words it
 * (field-messages.ts: "Heading is too long: at most 60 characters."). Draft-07, as rjsf's Ajv.
 */
class InterpretingValidator implements ValidatorType<FormData, RJSFSchema> {
  /** cfworker's `$ref` table of each root schema, kept while the schema object lives. */
  private lookups = new WeakMap<object, Lookup>();

  validateFormData(
    formData: FormData | undefined,
    schema: RJSFSchema,
    customValidate?: CustomValidator<FormData, RJSFSchema>,
    transformErrors?: ErrorTransformer<FormData, RJSFSchema>,
    uiSchema?: UiSchema<FormData, RJSFSchema>,
  ): ValidationData<FormData> {
    return processRawValidationErrors(
      this,
      this.rawValidation<ErrorObject>(schema, formData),
      formData,
      schema,
      customValidate,
      transformErrors,
      uiSchema,
    );
  }

  rawValidation<Result = ErrorObject>(schema: RJSFSchema, formData?: FormData) {
    try {
      const data = asJson(formData);
      const lookup = this.lookupOf(schema);
      const { valid, errors } = validate(data, schema as Schema, '7', lookup, false);
      if (valid) return { errors: undefined };
      const found = toAjvErrors(errors, data, schema as Schema, lookup).map((error) => ({
        ...liftedToImage(error, schema as Schema, lookup),
        message: fieldMessage(error),
      }));
      return { errors: found as Result[] };
    } catch (error) {
      // A schema that cannot be used (a pattern that is no regular expression, a $ref to nowhere), as Ajv's compile error.
      return { errors: undefined, validationError: error as Error };
    }
  }

  isValid(schema: RJSFSchema, formData: FormData | undefined, rootSchema: RJSFSchema): boolean {
    try {
      return validate(asJson(formData), schema as Schema, '7', this.lookupWithin(schema, rootSchema)).valid;
    } catch (error) {
      console.warn('Error encountered validating against a schema:', error);
      return false;
    }
  }

  reset() {
    this.lookups = new WeakMap();
  }

  private lookupOf(root: RJSFSchema): Lookup {
    let lookup = this.lookups.get(root);
    if (!lookup) {
      lookup = dereference(root as Schema);
      this.lookups.set(root, lookup);
    }
    return lookup;
  }

  /** A part of the root schema (an option of a oneOf), whose `#/…` references are the root's. */
  private lookupWithin(schema: RJSFSchema, root: RJSFSchema): Lookup {
    const rootLookup = this.lookupOf(root);
    if (schema === root) return rootLookup;
    // Named apart from every pointer of the root, with its references resolved as the root's are.
    return dereference(schema as Schema, { ...rootLookup }, undefined, '/$rjsf-part');
  }
}

/**
 * An error about an image's address or alt text (`/photo/src`) said at the
 * image field itself (`/photo`): its widget draws both, and rjsf hands a
 * widget the errors of its own path only. Its words stay (the address is
 * titled as the field: "Photo must be a web address…").
 */
function liftedToImage(error: ErrorObject, schema: Schema, lookup: Lookup): ErrorObject {
  const at = /^(.*)\/(src|alt)$/.exec(error.instancePath);
  const where = /^#(.*)\/properties\/(src|alt)\/[^/]+$/.exec(error.schemaPath);
  if (!at || !where) return error;
  const owner = schemaAt(schema, lookup, where[1]!.split('/').slice(1));
  return owner['x-widget'] === 'image' ? { ...error, instancePath: at[1]! } : error;
}

/**
 * The form's data as JSON: a key whose value is undefined (a cleared input)
 * is absent, as Ajv takes it (its `required` then fails); an undefined item
 * or root is null, which fails a typed schema as undefined failed Ajv's.
 */
function asJson(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(asJson);
  const prototype: unknown = value && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (prototype === Object.prototype || prototype === null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as object)) if (item !== undefined) out[key] = asJson(item);
    return out;
  }
  return value;
}

/** The app's one validator for its JSON Schema forms (one `$ref` cache for all of them). */
export const validator: ValidatorType<FormData, RJSFSchema> = new InterpretingValidator();
