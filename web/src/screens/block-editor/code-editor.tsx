import { Input } from '@mantine/core';
import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { liquid } from '@codemirror/lang-liquid';
import { markdown } from '@codemirror/lang-markdown';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useId, useMemo } from 'react';

const LANGUAGES = {
  // Without closing tags typed for the author: they are written by hand, and doubled ones broke templates.
  liquid: () => liquid({ base: html({ autoCloseTags: false }) }),
  css: () => css(),
  javascript: () => javascript(),
  markdown: () => markdown(),
  json: () => json(),
} as const;

export type CodeLanguage = keyof typeof LANGUAGES;

/**
 * A CodeMirror 6 editor with a visible label, its description and error, as
 * a Mantine input. Tab leaves the editor (keyboard users are not trapped);
 * `path` is the form path a server error names, so the error can focus it.
 */
export function CodeEditor({
  label,
  description,
  value,
  onChange,
  language,
  error,
  path,
  minHeight = '8rem',
}: {
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
  language: CodeLanguage;
  error?: string | undefined;
  path?: string;
  minHeight?: string;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const describedBy = [description ? `${id}-description` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  const extensions = useMemo(
    () => [
      LANGUAGES[language](),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        'aria-labelledby': labelId,
        'aria-multiline': 'true',
        role: 'textbox',
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(error ? { 'aria-invalid': 'true' } : {}),
        ...(path ? { 'data-path': path } : {}),
      }),
    ],
    [language, labelId, describedBy, error, path],
  );
  return (
    <Input.Wrapper
      id={id}
      label={label}
      labelElement="div"
      labelProps={{ id: labelId }}
      description={description}
      descriptionProps={{ id: `${id}-description` }}
      error={error}
      errorProps={{ id: `${id}-error` }}
    >
      <div
        style={{
          border: `1px solid ${error ? 'var(--mantine-color-error)' : 'var(--mantine-color-default-border)'}`,
          borderRadius: 'var(--mantine-radius-sm)',
          overflow: 'hidden',
          marginTop: 4,
        }}
      >
        <CodeMirror
          value={value}
          onChange={onChange}
          extensions={extensions}
          indentWithTab={false}
          minHeight={minHeight}
          maxHeight="28rem"
          basicSetup={{ foldGutter: false, highlightActiveLine: false }}
        />
      </div>
    </Input.Wrapper>
  );
}
