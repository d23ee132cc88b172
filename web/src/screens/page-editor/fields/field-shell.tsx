import { Input } from '@mantine/core';
import type { ReactNode } from 'react';

/** The id of a field's error text, which its control names in `aria-describedby`. */
export const errorIdOf = (id: string) => `${id}__error`;

/** Whether rjsf handed the field errors to show. */
export const isInvalid = (rawErrors: string[] | undefined) => (rawErrors?.length ?? 0) > 0;

/**
 * The label, required mark and error around a field widget that draws its own
 * control (colour, image, rich text, markdown): the Mantine theme's field
 * template leaves both to the widget. With `labelFor`, the label is a real
 * `<label>` of that control; otherwise a `<div>` over a group of controls,
 * each named by its own label.
 */
export function FieldShell({
  id,
  label,
  required,
  rawErrors,
  labelFor,
  description,
  children,
}: {
  id: string;
  label: string;
  required?: boolean | undefined;
  rawErrors?: string[] | undefined;
  labelFor?: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Input.Wrapper
      labelElement={labelFor ? 'label' : 'div'}
      labelProps={labelFor ? { htmlFor: labelFor } : undefined}
      label={label}
      description={description}
      required={required}
      error={isInvalid(rawErrors) ? rawErrors!.join('\n') : undefined}
      errorProps={{ id: errorIdOf(id) }}
    >
      {children}
    </Input.Wrapper>
  );
}
