import type { ErrorSchema } from '@rjsf/utils';
import { ApiError, errorMessage, placedMessage } from '../../api/errors';
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
      summary.push(placedMessage({ path, message }));
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

/** The rjsf id prefix of a binding slot's params form: `bindings_feed_params_limit`. */
export const paramsIdPrefix = (slot: string) => `bindings_${slot}_params`;
/** The id of a binding slot's source control. */
export const sourceId = (slot: string) => `bindings_${slot}_source`;

export interface PlacedInstanceErrors {
  values: ErrorSchema;
  /** By slot name: the message of its source. */
  sources: Record<string, string>;
  /** By slot name: the error schema of its params form. */
  params: Record<string, ErrorSchema>;
  /** Ids of the controls with a message, in the service's order. */
  ids: string[];
  summary: string[];
}

/**
 * A refusal of `PUT …/blocks/{pbId}` placed on the instance editor: values at
 * their field (`placeholder_values.title` → `root_title`), a binding's source
 * at its slot's source control (`bindings.feed.source`), its params at their
 * field (`bindings.feed.params.limit` → `bindings_feed_params_limit`); the
 * rest, and paths the editor has no control for, in the summary.
 */
export function placeInstanceErrors(error: unknown, hasField: (id: string) => boolean): PlacedInstanceErrors {
  const placed: PlacedInstanceErrors = { values: {}, sources: {}, params: {}, ids: [], summary: [] };
  const at = (schema: ErrorSchema, parts: string[], message: string) => {
    let node = schema as Record<string, unknown>;
    for (const part of parts) node = (node[part] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(message);
  };
  for (const { path, message } of error instanceof ApiError ? error.errors : []) {
    const parts = formPath(path).split('.');
    const [head, slot, kind, ...rest] = parts;
    let id: string | null = null;
    if (head === 'placeholder_values' && parts.length > 1) {
      id = ['root', ...parts.slice(1)].join('_');
      // An image's address or alt text (`photo.src`) at the image field, whose widget draws both.
      const parent = ['root', ...parts.slice(1, -1)].join('_');
      if (!hasField(id) && parts.length > 2 && /^(src|alt)$/.test(parts.at(-1)!) && hasField(parent)) {
        parts.pop();
        id = parent;
      }
      if (hasField(id)) at(placed.values, parts.slice(1), message);
      else id = null;
    } else if (head === 'bindings' && slot !== undefined && kind === 'source' && rest.length === 0) {
      id = sourceId(slot);
      if (hasField(id)) placed.sources[slot] ??= message;
      else id = null;
    } else if (head === 'bindings' && slot !== undefined && kind === 'params' && rest.length > 0) {
      id = [paramsIdPrefix(slot), ...rest].join('_');
      if (hasField(id)) at((placed.params[slot] ??= {}), rest, message);
      else id = null;
    }
    if (id === null) placed.summary.push(placedMessage({ path, message }));
    else if (!placed.ids.includes(id)) placed.ids.push(id);
  }
  if (placed.ids.length === 0 && placed.summary.length === 0) placed.summary.push(errorMessage(error));
  return placed;
}
