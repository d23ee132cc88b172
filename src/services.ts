import type { ApiKeysService } from './modules/api-keys/api-keys.service.js';
import type { AuthService } from './modules/auth/auth.service.js';
import type { UsersService } from './modules/auth/users.service.js';
import type { SitesService } from './modules/sites/sites.service.js';
import type { BlocksService } from './modules/blocks/blocks.service.js';
import type { PlaceholderSchemaService } from './modules/blocks/placeholder-schema.service.js';
import type { CollectionsService } from './modules/collections/collections.service.js';
import type { SubmissionsService } from './modules/submissions/submissions.service.js';
import type { PagesService } from './modules/pages/pages.service.js';
import type { PageBlocksService } from './modules/pages/page-blocks.service.js';
import type { PageBlockUpgradesService } from './modules/pages/page-block-upgrades.service.js';
import type { PageHistoryService } from './modules/pages/page-history.service.js';
import type { FoldersService } from './modules/folders/folders.service.js';
import type { LayoutsService } from './modules/layouts/layouts.service.js';
import type { SchedulesService } from './modules/publishing/schedules.service.js';
import type { WebhooksService } from './modules/webhooks/webhooks.service.js';
import type { PageRenderingService } from './modules/publishing/page-rendering.service.js';
import type { PublishingService } from './modules/publishing/publishing.service.js';
import type { UploadsService } from './modules/uploads/uploads.service.js';
import type { DataSourcesService } from './modules/catalog/data-sources.service.js';
import type { PageTypesService } from './modules/catalog/page-types.service.js';
import type { TagsService } from './modules/catalog/tags.service.js';
import type { UpgradeImpactService } from './modules/pages/upgrade-impact.js';
import type { MigrationImpactService } from './modules/pages/migration-impact.js';
import type { UpgradePlanService } from './modules/pages/upgrade-plan.service.js';
import type { PageBlockMigrationsService } from './modules/pages/page-block-migrations.service.js';
import type { UpgradeSetsService } from './modules/pages/upgrade-sets.service.js';

/** Every domain service, as the HTTP layer sees them. Built in app.ts. */
export interface Services {
  auth: AuthService;
  users: UsersService;
  apiKeys: ApiKeysService;
  sites: SitesService;
  blocks: BlocksService;
  placeholderSchemas: PlaceholderSchemaService;
  collections: CollectionsService;
  submissions: SubmissionsService;
  pages: PagesService;
  pageBlocks: PageBlocksService;
  /** A page's instances moved to their block's current revision: one, or every minor upgrade of the page. */
  pageBlockUpgrades: PageBlockUpgradesService;
  /** What a block update means for the caller's instances (`upgrade_impact`). */
  upgradeImpact: UpgradeImpactService;
  /** What a major block update means for the values of its removed fields, with its migrations (`migration_impact`). */
  migrationImpact: MigrationImpactService;
  /** What upgrading a block's instances would do, instance by instance (`GET /blocks/{id}/upgrade-plan`). */
  upgradePlan: UpgradePlanService;
  /** One instance through its block's chain of revisions and their value migrations. */
  migrations: PageBlockMigrationsService;
  /** The plan applied to every page at once, and reverted (`POST /blocks/{id}/upgrades`, `/upgrade-sets/{id}/revert`). */
  upgradeSets: UpgradeSetsService;
  history: PageHistoryService;
  folders: FoldersService;
  layouts: LayoutsService;
  rendering: PageRenderingService;
  publishing: PublishingService;
  schedules: SchedulesService;
  webhooks: WebhooksService;
  uploads: UploadsService;
  dataSources: DataSourcesService;
  tags: TagsService;
  layoutTags: TagsService;
  pageTypes: PageTypesService;
}
