import { Code, Stack, Text, Title } from '@mantine/core';
import { ResponsiveTable } from '../../shell/responsive-table';
import type { SubmissionReview } from './submission-types';

type Revision = NonNullable<SubmissionReview['revision']>;
type Field = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The block's description and docs as submitted (docs as their markdown source: what would be copied). */
export function SubmittedTexts({ block }: { block: SubmissionReview['block'] }) {
  return (
    <section aria-labelledby="texts-title">
      <Title order={2} size="h3" id="texts-title" mb="xs">
        Description
      </Title>
      <Stack gap="xs">
        <Text>{block.description || 'No description.'}</Text>
        <Text size="sm">
          {block.kind === 'layout' ? 'A layout block' : 'A content block'}
          {block.block_type === 'markdown' ? ' whose main content is markdown.' : '.'}
        </Text>
        {block.docs && (
          <>
            <Text fw={500} size="sm">
              Documentation (markdown)
            </Text>
            <SourceText label="Documentation" value={block.docs} />
          </>
        )}
      </Stack>
    </section>
  );
}

/** The fields as defined: key, type, whether required, and what the author tells editors. */
export function SubmittedFields({
  fields,
  blockType,
}: {
  fields: Revision['schema_content'];
  blockType: SubmissionReview['block']['block_type'];
}) {
  return (
    <section aria-labelledby="fields-title">
      <Title order={2} size="h3" id="fields-title" mb="xs">
        Fields
      </Title>
      {fields.length === 0 ? (
        <Text size="sm">{blockType === 'markdown' ? 'Only its markdown text.' : 'This block takes no values.'}</Text>
      ) : (
        <ResponsiveTable<Field>
          label="Fields"
          rows={fields}
          rowKey={(f) => text(f.name)}
          columns={[
            { header: 'Key', cell: (f) => <Code>{text(f.name)}</Code> },
            { header: 'Type', cell: (f) => typeOf(f) },
            { header: 'Required', cell: (f) => (f.required === true ? 'Yes' : 'No') },
            {
              header: 'About',
              cell: (f) => [text(f.label), text(f.description)].filter(Boolean).join(': ') || '—',
            },
          ]}
        />
      )}
    </section>
  );
}

function typeOf(field: Field): string {
  const type = text(field.type);
  if (type === 'array' && field.items && typeof field.items === 'object')
    return `list of ${text((field.items as Field).type) || 'items'}`;
  if (type === 'object' && Array.isArray(field.fields)) return `group of ${field.fields.length} fields`;
  if (type === 'binding' && Array.isArray(field.allowed_sources))
    return `live data from ${field.allowed_sources.join(', ')}`;
  return type;
}

/** Template, CSS and JS as submitted, in full: the approval copies them character for character. */
export function SubmittedCode({ revision }: { revision: Revision }) {
  return (
    <section aria-labelledby="code-title">
      <Title order={2} size="h3" id="code-title" mb="xs">
        Code
      </Title>
      <Stack>
        {(
          [
            ['Template', revision.template_content],
            ['CSS', revision.css],
            ['JavaScript', revision.js],
          ] as const
        ).map(([label, value]) => (
          <Stack gap={4} key={label}>
            <Title order={3} size="h4">
              {label}
            </Title>
            {value ? <SourceText label={label} value={value} /> : <Text size="sm">None.</Text>}
          </Stack>
        ))}
      </Stack>
    </section>
  );
}

/** Source text as it is, wrapped rather than scrolled sideways (a phone shows it whole). */
function SourceText({ label, value }: { label: string; value: string }) {
  return (
    <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', overflow: 'visible' }}>
      {value}
    </Code>
  );
}
