import { Button, Group, Image, Stack, TextInput } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useState } from 'react';
import { MediaLibrary } from './media-library';

/** What the page editor's form tells its widgets. */
export interface FieldsContext {
  /** The page's site: whose uploads the media library shows (none for a page outside a site). */
  siteId: number | null;
}

/**
 * The rjsf widget of an `image` field (`x-widget: image`): the image shown,
 * its URL (any http(s) image may be typed or pasted), and the site's media
 * library to upload or choose one. "Remove image" empties the field.
 */
export function ImageWidget({
  id,
  value,
  label,
  required,
  rawErrors,
  disabled,
  readonly,
  onChange,
  onBlur,
  registry,
}: WidgetProps) {
  const url = typeof value === 'string' ? value : '';
  const name = label || 'Image';
  const siteId = (registry.formContext as FieldsContext | undefined)?.siteId ?? null;
  const [open, setOpen] = useState(false);
  const off = disabled || readonly;
  return (
    <Stack gap={6}>
      <TextInput
        id={id}
        label={name}
        required={required}
        value={url}
        disabled={off}
        placeholder="https://…"
        error={rawErrors?.length ? rawErrors.join('\n') : undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        onBlur={() => onBlur(id, url)}
      />
      {url && /^(https?:|\/)/i.test(url) && (
        <Image src={url} alt={`${name}, as chosen`} mah={140} w="auto" fit="contain" radius="sm" />
      )}
      <Group gap="xs">
        {siteId !== null && (
          <Button variant="default" size="compact-sm" disabled={off} onClick={() => setOpen(true)}>
            {url ? `Change ${name.toLowerCase()}…` : `Choose ${name.toLowerCase()}…`}
          </Button>
        )}
        {url && (
          <Button variant="subtle" color="red" size="compact-sm" disabled={off} onClick={() => onChange(undefined)}>
            Remove {name.toLowerCase()}
          </Button>
        )}
      </Group>
      {siteId !== null && (
        <MediaLibrary
          siteId={siteId}
          opened={open}
          fieldLabel={name}
          current={url}
          onClose={() => setOpen(false)}
          onChoose={(chosen) => {
            onChange(chosen);
            setOpen(false);
          }}
        />
      )}
    </Stack>
  );
}
