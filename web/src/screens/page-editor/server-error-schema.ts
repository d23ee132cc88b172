import type { ErrorSchema } from '@rjsf/utils';
import { ApiError, errorMessage } from '../../api/errors';
import { formPath } from '../../forms/server-errors';

export interface PlacedErrors {
  /** For react-jsonschema-form's `extraErrors`: each message at its field. */
  schema: ErrorSchema;
  /** rjsf ids of the fields with a message, in the service's order (`root_title`, `root_items_0_caption`). */
  ids: string[];
  /** Messages without a field in the form. */
  summary: string[];
}

/**
 * A refusal of `PUT …/blocks/{pbId}` placed on the values form: an `errors[]`
 * path `placeholder_values.items[0].caption` becomes the error of the field
 * `root_items_0_caption`. `hasField(id)` says whether the form shows that field.
 */
export function placeServerErrors(error: unknown, prefix: string, hasField: (id: string) => boolean): PlacedErrors {
  const schema: ErrorSchema = {};
  const ids: string[] = [];
  const summary: string[] = [];
  for (const { path, message } of error instanceof ApiError ? error.errors : []) {
    const parts = formPath(path).split('.');
    const id = ['root', ...parts.slice(1)].join('_');
    if (parts[0] !== prefix || parts.length < 2 || !hasField(id)) {
      summary.push(path === 'root' ? message : `${path}: ${message}`);
      continue;
    }
    let node = schema as Record<string, unknown>;
    for (const part of parts.slice(1)) node = (node[part] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(message);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0 && summary.length === 0) summary.push(errorMessage(error));
  return { schema, ids, summary };
}
