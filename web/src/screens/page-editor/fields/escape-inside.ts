import type { FocusEvent, KeyboardEvent } from 'react';

/**
 * A field's own overlay (the media library, the colour picker) opened inside
 * another dialog (the Replace dialog): Escape closes that overlay alone.
 * Mantine's modals close on an Escape seen on the window, before any element
 * hears it, unless its target carries `data-mantine-stop-propagation` (how
 * Mantine's own comboboxes keep theirs): each control of the overlay gets it
 * as it takes the focus, and the overlay closes itself.
 */
export function escapeStaysInside(close?: () => void) {
  return {
    onFocusCapture: (event: FocusEvent<HTMLElement>) => {
      if (event.target instanceof HTMLElement) event.target.setAttribute('data-mantine-stop-propagation', 'true');
    },
    ...(close && {
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        close();
      },
    }),
  };
}
