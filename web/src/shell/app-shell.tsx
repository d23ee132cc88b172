import { AppShell, Anchor, Burger, Button, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { NavLink as RouterNavLink, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { useEffect } from 'react';
import { useSession, useSignOut } from '../auth/session';
import { NAV } from './nav';
import classes from './app-shell.module.css';
import { UnsavedChangesGuard } from '../forms/unsaved-changes';

/**
 * Header, navigation (a burger below 48 em, so at 390 px) and the skip link to the main content.
 * The page editor takes the whole width (the page beside its panel): there the navigation is behind
 * the burger at every width.
 */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { data: user } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const location = useLocation();
  // Below the navbar's breakpoint (Mantine's `sm`, 48 em) a closed menu is only moved off screen: it is
  // made inert too, so that its links leave the tab order and the accessibility tree.
  // The page editor keeps the menu closed at every width: there it is inert whenever it is closed.
  const narrow = useMediaQuery('(max-width: 47.99em)');
  const editor = useMatch('/pages/:id') !== null;

  // A route change closes the mobile menu.
  useEffect(close, [location.pathname, close]);

  const entries = NAV.filter((entry) => !entry.admin || user?.is_admin);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !user || (editor && !opened) } }}
      padding="md"
    >
      <a className={classes.skip} href="#main">
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {user && (
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom={editor ? undefined : 'sm'}
                size="sm"
                aria-label={opened ? 'Close navigation' : 'Open navigation'}
                aria-expanded={opened}
                aria-controls="main-navigation"
              />
            )}
            <Anchor component={RouterNavLink} to="/" fw={700} size="lg" underline="never" c="inherit">
              Pageblocks
            </Anchor>
          </Group>
          {user && (
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" c="dimmed" visibleFrom="sm" truncate maw={260}>
                {user.email}
              </Text>
              <Button
                variant="default"
                size="xs"
                loading={signOut.isPending}
                onClick={() => signOut.mutate(undefined, { onSettled: () => void navigate('/sign-in') })}
              >
                Sign out
              </Button>
            </Group>
          )}
        </Group>
      </AppShell.Header>
      {user && (
        // AppShell.Navbar is a <nav>, AppShell.Main a <main>.
        <AppShell.Navbar p="xs" id="main-navigation" aria-label="Main" inert={(narrow || editor) && !opened}>
          {entries.map((entry) => (
            <NavLink
              key={entry.to}
              component={RouterNavLink}
              to={entry.to}
              label={entry.label}
              active={location.pathname === entry.to || location.pathname.startsWith(`${entry.to}/`)}
            />
          ))}
        </AppShell.Navbar>
      )}
      <AppShell.Main id="main" tabIndex={-1} className={classes.main}>
        <UnsavedChangesGuard>
          <Outlet />
        </UnsavedChangesGuard>
      </AppShell.Main>
    </AppShell>
  );
}
