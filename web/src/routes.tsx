import type { RouteObject } from 'react-router';
import { RequireAuth } from './auth/require-auth';
import { Shell } from './shell/app-shell';
import { AdminCatalogScreen } from './screens/admin-catalog.screen';
import { AdminDeprecationScreen } from './screens/admin-deprecation.screen';
import { AdminModerationScreen } from './screens/admin-moderation.screen';
import { AdminUsersScreen } from './screens/admin-users.screen';
import { ApiKeysScreen } from './screens/api-keys.screen';
import { BlockScreen } from './screens/block.screen';
import { BlockFormScreen } from './screens/block-editor/block-form.screen';
import { BlocksScreen } from './screens/blocks.screen';
import { HomeScreen } from './screens/home.screen';
import { NotFoundScreen } from './screens/not-found.screen';
import { PageScreen } from './screens/page.screen';
import { PagesScreen } from './screens/pages.screen';
import { RegisterScreen } from './screens/register.screen';
import { SignInScreen } from './screens/sign-in.screen';
import { SiteScreen } from './screens/site.screen';
import { SitesScreen } from './screens/sites.screen';

/** The route table. A screen behind sign-in goes under the RequireAuth route; an admin one under `admin`. */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      { path: '/sign-in', element: <SignInScreen /> },
      { path: '/register', element: <RegisterScreen /> },
      {
        element: <RequireAuth />,
        children: [
          { path: '/', element: <HomeScreen /> },
          { path: '/sites', element: <SitesScreen /> },
          { path: '/sites/:id', element: <SiteScreen /> },
          { path: '/api-keys', element: <ApiKeysScreen /> },
          { path: '/pages', element: <PagesScreen /> },
          { path: '/pages/:id', element: <PageScreen /> },
          { path: '/blocks', element: <BlocksScreen /> },
          { path: '/blocks/new', element: <BlockFormScreen /> },
          { path: '/blocks/:id', element: <BlockScreen /> },
          { path: '/blocks/:id/edit', element: <BlockFormScreen /> },
          {
            element: <RequireAuth admin />,
            children: [
              { path: '/admin/moderation', element: <AdminModerationScreen /> },
              { path: '/admin/users', element: <AdminUsersScreen /> },
              { path: '/admin/deprecation', element: <AdminDeprecationScreen /> },
              { path: '/admin/catalog', element: <AdminCatalogScreen /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];
