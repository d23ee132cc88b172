import { Paper } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import classes from './richtext.module.css';
import { errorIdOf, FieldShell, isInvalid } from './field-shell';

/** What an empty document is as HTML: stored as no value, so that `required` means something was written. */
const EMPTY = new Set(['', '<p></p>']);

/**
 * The rjsf widget of a `richtext` field: TipTap (ProseMirror) with its
 * starter kit, giving HTML. The service stores that HTML sanitized by the
 * policy publication uses (src/rendering/sanitize.ts), so what the editor
 * can make (paragraphs, headings, lists, quotes, code, links, bold, italic,
 * underline, strike) is what that policy keeps. Enter is a new paragraph,
 * never a submit; Ctrl/Cmd+S still saves (the panel listens for it). Like
 * the themed widgets, it shows its own label and error (FieldShell).
 */
export default function RichTextEditor({
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
  const html = typeof value === 'string' ? value : '';
  const invalid = isInvalid(rawErrors);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        // A link in the editor is text to edit, not a way out of the app; target and rel are the page's business.
        link: { openOnClick: false, HTMLAttributes: { target: null, rel: null } },
      }),
    ],
    content: html,
    editable: !disabled && !readonly,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': `${label || 'Rich text'} (rich text)`,
        class: classes.content!,
        ...(required ? { 'aria-required': 'true' } : {}),
        ...(invalid ? { 'aria-invalid': 'true', 'aria-describedby': errorIdOf(id) } : {}),
      },
    },
    onUpdate: ({ editor: current }) => {
      const next = current.getHTML();
      onChange(EMPTY.has(next) ? undefined : next);
    },
    onBlur: ({ editor: current }) => onBlur(id, current.getHTML()),
  });

  // A value changed outside the editor (Discard changes, an edit on the page) is shown, without a change event.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const shown = editor.getHTML();
    if (shown === html || (EMPTY.has(shown) && EMPTY.has(html))) return;
    editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);

  useEffect(() => {
    editor?.setEditable(!disabled && !readonly);
  }, [editor, disabled, readonly]);

  return (
    <FieldShell id={id} label={label || 'Rich text'} required={required} rawErrors={rawErrors}>
      <Paper withBorder className={classes.frame} data-invalid={invalid || undefined}>
        {editor && <Toolbar editor={editor} label={label || 'Rich text'} />}
        <EditorContent editor={editor} />
      </Paper>
    </FieldShell>
  );
}

interface Action {
  name: string;
  active: (editor: Editor) => boolean;
  run: (editor: Editor) => void;
}

const ACTIONS: Action[] = [
  { name: 'Bold', active: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  {
    name: 'Italic',
    active: (e) => e.isActive('italic'),
    run: (e) => e.chain().focus().toggleItalic().run(),
  },
  {
    name: 'Heading',
    active: (e) => e.isActive('heading', { level: 2 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(),
  },
  {
    name: 'Subheading',
    active: (e) => e.isActive('heading', { level: 3 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
  },
  {
    name: 'Bulleted list',
    active: (e) => e.isActive('bulletList'),
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    name: 'Numbered list',
    active: (e) => e.isActive('orderedList'),
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    name: 'Quote',
    active: (e) => e.isActive('blockquote'),
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
];

/** Formatting buttons: each says whether it is on where the cursor is (aria-pressed). */
function Toolbar({ editor, label }: { editor: Editor; label: string }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ACTIONS.map((action) => action.active(current)),
  });
  return (
    <div role="toolbar" aria-label={`${label} formatting`} className={classes.toolbar}>
      {ACTIONS.map((action, i) => (
        <button
          key={action.name}
          type="button"
          className={classes.button}
          aria-pressed={state[i] ?? false}
          disabled={!editor.isEditable}
          // Keeps the editor's selection: the button acts on what was selected.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => action.run(editor)}
        >
          {action.name}
        </button>
      ))}
    </div>
  );
}
