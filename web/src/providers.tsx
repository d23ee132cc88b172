import {
  Alert,
  DEFAULT_THEME,
  Drawer,
  MantineProvider,
  Modal,
  NumberInput,
  createTheme,
  darken,
  type CSSVariablesResolver,
} from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiContext, type Api } from './api/client';
import { ApiError } from './api/errors';
import { SessionLostDialog } from './auth/session-lost-dialog';

export const theme = createTheme({
  primaryColor: 'blue',
  // Darker than Mantine's default 6 so that white text on buttons and links on white pass WCAG AA.
  primaryShade: 8,
  defaultRadius: 'sm',
  components: {
    // Mantine's close button has no name of its own. Its dialog's header is a <header>, which outside
    // a sectioning element is a banner landmark: every open dialog repeated the page's banner (axe).
    Modal: Modal.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, attributes: { header: { role: 'none' } } },
    }),
    Drawer: Drawer.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, attributes: { header: { role: 'none' } } },
    }),
    // A number out of range is said, not silently changed: 500 where 50 is the most stays 500 and
    // gets its message (from the form's check or the service's), instead of turning into 50 on blur.
    NumberInput: NumberInput.extend({ defaultProps: { clampBehavior: 'none' } }),
    // A coloured title on a tint of the same colour falls under 4.5:1 for green and yellow;
    // a link in an alert takes the alert's own (dark enough) colour instead of the anchor blue.
    Alert: Alert.extend({
      styles: {
        title: { color: 'var(--mantine-color-text)' },
        message: { '--mantine-color-anchor': 'currentColor' },
      },
    }),
  },
});

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will not change by asking again.
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

// WCAG AA asks 4.5:1 for text. Mantine's dimmed grey (gray.6) is 3.3:1 on white. The text of
// its light variants (alerts, light buttons and badges, the active nav entry) is shade 9 on the
// tint of shade 1, or of shade 2 when hovered: 3.8:1 for green, 4.0:1 for blue hovered. Shade 9
// darkened by 0.3 is at least 4.7:1 on shade 2 for every colour (the browser test measures it).
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // A field's error message (and an invalid input's text) is red 6 by default: 3.3:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(DEFAULT_THEME.colors).map(([color, shades]) => [
        `--mantine-color-${color}-light-color`,
        darken(shades[9], 0.3),
      ]),
    ),
  },
  dark: {},
});

/** Everything a screen needs around it; tests wrap screens in the same providers with a fake `api`. */
export function Providers({ api, queryClient, children }: { api: Api; queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <ApiContext.Provider value={api}>
          {children}
          <SessionLostDialog />
        </ApiContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
