import { Alert, DEFAULT_THEME, MantineProvider, Modal, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiContext, type Api } from './api/client';
import { ApiError } from './api/errors';

export const theme = createTheme({
  primaryColor: 'blue',
  // Darker than Mantine's default 6 so that white text on buttons and links on white pass WCAG AA.
  primaryShade: 8,
  defaultRadius: 'sm',
  components: {
    // Mantine's close button has no name of its own.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A coloured title on a tint of the same colour falls under 4.5:1 for green and yellow.
    Alert: Alert.extend({ styles: { title: { color: 'var(--mantine-color-text)' } } }),
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

// WCAG AA asks 4.5:1 for text. Mantine's dimmed grey (gray.6) is 3.3:1 on white, and the
// text of its light variants (alerts, light buttons) is shade 6 on a tint: both one step darker.
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    ...Object.fromEntries(
      Object.keys(DEFAULT_THEME.colors).map((color) => [
        `--mantine-color-${color}-light-color`,
        `var(--mantine-color-${color}-9)`,
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
        <ApiContext.Provider value={api}>{children}</ApiContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
