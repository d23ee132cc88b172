import { markdown } from '@codemirror/lang-markdown';
import { Paper, SimpleGrid, Stack, Text, Typography } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { errorIdOf, FieldShell, isInvalid } from './fields/field-shell';

/**
 * The rjsf widget of a markdown field (`_markdown` of a markdown block):
 * CodeMirror 6 with the markdown language, and the text rendered beside it
 * (GitHub Flavored Markdown, like the service renders it; raw HTML is not
 * rendered here). The editable area carries the field's id, so a refusal's
 * focus lands in it, and Tab leaves it (no keyboard trap). Like the themed
 * widgets, it shows its own label and error (the Mantine theme's field
 * template leaves both to the widget: FieldShell).
 */
export function MarkdownWidget({
  id,
  value,
  label,
  required,
  rawErrors,
  disabled,
  readonly,
  onChange,
  onBlur,
}: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  const invalid = isInvalid(rawErrors);
  const extensions = useMemo(
    () => [
      markdown(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        id,
        'aria-label': `${label || 'Markdown'} (markdown)`,
        'aria-multiline': 'true',
        ...(required ? { 'aria-required': 'true' } : {}),
        ...(invalid ? { 'aria-invalid': 'true', 'aria-describedby': errorIdOf(id) } : {}),
      }),
    ],
    [id, label, required, invalid],
  );
  return (
    <FieldShell id={id} label={label || 'Markdown'} required={required} rawErrors={rawErrors}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <Paper withBorder style={{ borderColor: invalid ? 'var(--mantine-color-red-6)' : undefined }}>
          <CodeMirror
            value={text}
            extensions={extensions}
            editable={!disabled && !readonly}
            indentWithTab={false}
            basicSetup={{ lineNumbers: false, foldGutter: false, highlightActiveLine: false }}
            minHeight="12rem"
            onChange={(next) => onChange(next === '' ? undefined : next)}
            onBlur={() => onBlur(id, text)}
          />
        </Paper>
        <Stack gap={4}>
          <Text size="xs" c="dimmed" id={`${id}__rendered-title`}>
            Rendered
          </Text>
          <Paper
            withBorder
            p="sm"
            role="region"
            aria-labelledby={`${id}__rendered-title`}
            style={{ minHeight: '12rem', overflow: 'auto' }}
          >
            {text.trim() === '' ? (
              <Text size="sm" c="dimmed">
                Nothing written yet.
              </Text>
            ) : (
              <Typography>
                <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
              </Typography>
            )}
          </Paper>
        </Stack>
      </SimpleGrid>
    </FieldShell>
  );
}
