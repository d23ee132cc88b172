import { MantineProvider, createTheme } from '@mantine/core';
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

/** Everything a screen needs around it; tests wrap screens in the same providers with a fake `api`. */
export function Providers({ api, queryClient, children }: { api: Api; queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <ApiContext.Provider value={api}>{children}</ApiContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
