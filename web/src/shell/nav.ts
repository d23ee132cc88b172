/**
 * The main navigation. A new screen adds its entry here and its route in
 * routes.tsx; `admin` entries show for administrators only.
 */
export interface NavEntry {
  to: string;
  label: string;
  admin?: boolean;
}

export const NAV: NavEntry[] = [
  { to: '/sites', label: 'Sites' },
  { to: '/pages', label: 'Pages' },
  { to: '/blocks', label: 'Block library' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/admin/moderation', label: 'Moderation', admin: true },
  { to: '/admin/users', label: 'Users', admin: true },
  { to: '/admin/deprecation', label: 'Deprecation', admin: true },
  { to: '/admin/catalog', label: 'Catalog', admin: true },
];
