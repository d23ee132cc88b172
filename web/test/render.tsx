import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Api } from '../src/api/client';
import { createQueryClient, Providers } from '../src/providers';
import { routes } from '../src/routes';

/** The whole app at `path`, over a fake API; returns the router to read where it went. */
export function renderApp(path: string, api: Api) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const view = render(
    <Providers api={api} queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router };
}
