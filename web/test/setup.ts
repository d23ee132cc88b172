import { cleanup, configure } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach } from 'vitest';
import { routes } from '../src/routes';

// The machine is shared: give the first render of a file (module loading included) time.
configure({ asyncUtilTimeout: 5000 });
afterEach(cleanup);

// The app loads most screens with their route (routes.tsx, `lazy`). The tests load them all up front, as
// every test file did before the split, so that a test's first findBy waits for the fake service and not
// for a screen's modules to be transformed on a busy machine.
const preload = (list: RouteObject[]): Promise<unknown>[] =>
  list.flatMap((route) => [
    ...(typeof route.lazy === 'function' ? [route.lazy()] : []),
    ...preload(route.children ?? []),
  ]);
await Promise.all(preload(routes));
