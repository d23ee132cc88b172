import { notFound, validationError, type FieldError } from '../../shared/errors.js';
import { StoredJson } from '../../shared/stored-json.js';
import { nestedIn, type InstanceBuilder } from '../pages/instance-builder.js';
import type { Binding } from '../pages/pages.js';
import type { RenderableInstance } from './publishing.js';

/** One instance of the page as an editor holds it before saving: by id, with what it changed. */
export interface DraftInstance {
  id: number;
  /** Replaces the saved values; absent: the saved ones. */
  placeholder_values?: Record<string, unknown>;
  /** Replaces the saved bindings; null clears them; absent: the saved ones. */
  bindings?: Record<string, unknown> | null;
  /** A layout instance of the draft, or null for the top level; absent: the saved parent. */
  parent_page_block_id?: number | null;
}

/**
 * The saved instances as the draft lists them: in its order, with its values,
 * bindings and parents, each instance on its pinned revision. Checked by the
 * same rules as the writes that would save it (`PUT …/blocks/{pbId}`,
 * `PUT …/move`), at `blocks[i]`; nothing is written.
 */
export async function applyDraft(
  saved: RenderableInstance[],
  draft: DraftInstance[],
  builder: InstanceBuilder,
): Promise<RenderableInstance[]> {
  const byId = new Map(saved.map((instance) => [instance.id, instance]));
  const missing = draft.flatMap((d, i) =>
    byId.has(d.id)
      ? []
      : [
          {
            path: `blocks[${i}].id`,
            message: `blocks[${i}]: instance ${d.id} is not on this page.`,
            code: 'not_found' as const,
            hint: 'the page’s instances are in GET /pages/{id}?with_blocks=1',
          },
        ],
  );
  if (missing.length) throw notFound(missing[0]!.message, missing);

  const errors: FieldError[] = [];
  const first = new Map<number, number>();
  draft.forEach((d, i) => {
    const at = first.get(d.id);
    if (at === undefined) first.set(d.id, i);
    else
      errors.push({
        path: `blocks[${i}].id`,
        message: `Instance ${d.id} is already at blocks[${at}]: each instance is listed once.`,
        code: 'not_unique',
      });
  });
  const next = draft.map((d): RenderableInstance => {
    const instance = byId.get(d.id)!;
    return {
      ...instance,
      placeholder_values:
        d.placeholder_values === undefined ? instance.placeholder_values : StoredJson.of(d.placeholder_values),
      bindings:
        d.bindings === undefined
          ? instance.bindings
          : d.bindings && Object.keys(d.bindings).length
            ? (d.bindings as Record<string, Binding>)
            : null,
      parent_page_block_id:
        d.parent_page_block_id === undefined ? instance.parent_page_block_id : d.parent_page_block_id,
    };
  });

  const inDraft = new Map(next.map((instance) => [instance.id, { ...instance, block: { kind: instance.kind } }]));
  next.forEach((instance, i) => {
    const parent = instance.parent_page_block_id;
    if (parent === null) return;
    const placed = builder.checkParent(parent, `blocks[${i}]`, inDraft);
    if (placed.length) errors.push(...placed);
    else if (nestedIn(inDraft, parent, instance.id))
      errors.push({
        path: `blocks[${i}].parent_page_block_id`,
        message: `Instance ${parent} is instance ${instance.id} or nested in it: a block cannot go into itself.`,
        code: 'not_allowed',
      });
  });
  errors.push(
    ...(await builder.checkPinned(
      next.flatMap((instance, i) => {
        const d = draft[i]!;
        // Only what the draft changes: the saved state was checked when it was saved.
        if (d.placeholder_values === undefined && d.bindings === undefined) return [];
        return [
          {
            instance: { revision_id: instance.revision.id, schema_snapshot: StoredJson.of(instance.schema_snapshot) },
            blockType: instance.block_type,
            values: instance.placeholder_values.value,
            bindings: instance.bindings ?? undefined,
            at: `blocks[${i}]`,
          },
        ];
      }),
    )),
  );
  if (errors.length) throw validationError('The draft cannot be previewed: see errors[].', errors);
  return next;
}
