import { Text } from '@mantine/core';
import type { RouteObject } from 'react-router';
import { RequireAuth } from './auth/require-auth';
import { Shell } from './shell/app-shell';
import { HomeScreen } from './screens/home.screen';
import { NotFoundScreen } from './screens/not-found.screen';
import { RegisterScreen } from './screens/register.screen';
import { SignInScreen } from './screens/sign-in.screen';

/**
 * The route table. A screen behind sign-in goes under the RequireAuth route; an admin one under `admin`.
 * Screens are loaded with their route (`lazy`), each in its own chunk, so that CodeMirror, the JSON
 * Schema forms, dnd-kit and markdown load only where they are used; the router keeps the current
 * screen until the next one has loaded. Sign-in, registration and home stay in the main chunk.
 */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    // Shown while the first screen of a visit loads.
    HydrateFallback: Loading,
    children: [
      { path: '/sign-in', element: <SignInScreen /> },
      { path: '/register', element: <RegisterScreen /> },
      {
        element: <RequireAuth />,
        children: [
          { path: '/', element: <HomeScreen /> },
          { path: '/sites', lazy: () => import('./screens/sites.screen').then((m) => ({ Component: m.SitesScreen })) },
          {
            path: '/sites/:id',
            lazy: () => import('./screens/site.screen').then((m) => ({ Component: m.SiteScreen })),
          },
          {
            path: '/webhooks',
            lazy: () => import('./screens/webhooks.screen').then((m) => ({ Component: m.WebhooksScreen })),
          },
          {
            path: '/api-keys',
            lazy: () => import('./screens/api-keys.screen').then((m) => ({ Component: m.ApiKeysScreen })),
          },
          { path: '/pages', lazy: () => import('./screens/pages.screen').then((m) => ({ Component: m.PagesScreen })) },
          {
            path: '/pages/:id',
            lazy: () => import('./screens/page.screen').then((m) => ({ Component: m.PageScreen })),
          },
          {
            path: '/blocks',
            lazy: () => import('./screens/blocks.screen').then((m) => ({ Component: m.BlocksScreen })),
          },
          {
            path: '/blocks/new',
            lazy: () =>
              import('./screens/block-editor/block-form.screen').then((m) => ({ Component: m.BlockFormScreen })),
          },
          {
            path: '/blocks/:id',
            lazy: () => import('./screens/block.screen').then((m) => ({ Component: m.BlockScreen })),
          },
          {
            path: '/blocks/:id/upgrade',
            lazy: () => import('./screens/block-upgrade.screen').then((m) => ({ Component: m.BlockUpgradeScreen })),
          },
          {
            path: '/blocks/:id/edit',
            lazy: () =>
              import('./screens/block-editor/block-form.screen').then((m) => ({ Component: m.BlockFormScreen })),
          },
          {
            element: <RequireAuth admin />,
            children: [
              {
                path: '/admin/moderation',
                lazy: () =>
                  import('./screens/admin-moderation.screen').then((m) => ({ Component: m.AdminModerationScreen })),
              },
              {
                path: '/admin/moderation/:id',
                lazy: () =>
                  import('./screens/admin-moderation/review.screen').then((m) => ({
                    Component: m.SubmissionReviewScreen,
                  })),
              },
              {
                path: '/admin/users',
                lazy: () => import('./screens/admin-users.screen').then((m) => ({ Component: m.AdminUsersScreen })),
              },
              {
                path: '/admin/deprecation',
                lazy: () =>
                  import('./screens/admin-deprecation.screen').then((m) => ({ Component: m.AdminDeprecationScreen })),
              },
              {
                path: '/admin/catalog',
                lazy: () => import('./screens/admin-catalog.screen').then((m) => ({ Component: m.AdminCatalogScreen })),
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];

function Loading() {
  return (
    <Text c="dimmed" p="md">
      Loading…
    </Text>
  );
}
