import type { UiSchema } from '@rjsf/utils';
import { MarkdownWidget } from '../markdown-widget';
import { ColorWidget } from './color-widget';
import { uiSchemaOf } from './field-ui';
import { ImageWidget } from './image-widget';
import { ListItemTemplate, ListTemplate } from './list-templates';
import { RichTextWidget } from './richtext-widget';

/**
 * What every form of a block's values draws its fields with: the Fields tab
 * and the Replace dialog alike, so that a field looks and works the same
 * wherever its value is asked for. Named `colour` apart from rjsf's own
 * `color` (Mantine's ColorInput), which the schema's format alone would not pick.
 */
export const fieldWidgets = {
  markdown: MarkdownWidget,
  richtext: RichTextWidget,
  colour: ColorWidget,
  image: ImageWidget,
};
export const fieldTemplates = { ArrayFieldTemplate: ListTemplate, ArrayFieldItemTemplate: ListItemTemplate };

/** The uiSchema of a block's values: each field's widget from `x-widget`, a markdown block's content first. */
export function valuesUiSchema(contract: { schema: Record<string, unknown>; block_type?: string | null }): UiSchema {
  return {
    ...uiSchemaOf(contract.schema),
    ...(contract.block_type === 'markdown'
      ? { _markdown: { 'ui:widget': 'markdown', 'ui:title': 'Content' }, 'ui:order': ['_markdown', '*'] }
      : {}),
  };
}
