import type { ApiKeysService } from './modules/api-keys/api-keys.service.js';
import type { AuthService } from './modules/auth/auth.service.js';
import type { UsersService } from './modules/auth/users.service.js';
import type { SitesService } from './modules/sites/sites.service.js';

/** Every domain service, as the HTTP layer sees them. Built in app.ts. */
export interface Services {
  auth: AuthService;
  users: UsersService;
  apiKeys: ApiKeysService;
  sites: SitesService;
}
