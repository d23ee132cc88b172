import { Text } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { lazy, Suspense } from 'react';

// ProseMirror is most of the editor's weight: it loads only for a block that has a rich-text field.
const RichTextEditor = lazy(() => import('./richtext-editor'));

/** The rjsf widget of a `richtext` field (`x-widget: richtext`): the rich-text editor, loaded when first needed. */
export function RichTextWidget(props: WidgetProps) {
  return (
    <Suspense
      fallback={
        <Text size="sm" c="dimmed">
          Loading the text editor…
        </Text>
      }
    >
      <RichTextEditor {...props} />
    </Suspense>
  );
}
