/**
 * What the services of one page's instances (`PageBlocksService`,
 * `PageBlockUpgradesService`) read before they change anything: the actor's
 * page, its instances, and the one a call names.
 */
import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { notFound, type ExpectedVersions } from '../../shared/errors.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { InstanceBuilder } from './instance-builder.js';
import type { PageBounds } from './page-bounds.js';
import { expectingVersion, type Page, type PageBlock, type PagesRepository } from './pages.js';
import type { PagesService } from './pages.service.js';

/** What a service of one page's instances is built with. */
export interface PageInstancesDeps {
  pages: PagesRepository;
  pagesService: PagesService;
  blocks: BlocksService;
  instances: InstanceBuilder;
  bounds: PageBounds;
  clock: Clock;
}

/** A page's instances in order, by id; `pages` is the page lock's own repository inside it. */
export async function instancesOf(pages: PagesRepository, pageId: number): Promise<Map<number, PageBlock>> {
  return new Map((await pages.blocks(pageId)).map((b) => [b.id, b]));
}

/**
 * The actor's page and its instances, in order. With `expected`: the 412 when
 * the page is at another version, before anything in the body is looked at.
 */
export async function currentPage(
  deps: Pick<PageInstancesDeps, 'pages' | 'pagesService'>,
  actor: Actor,
  pageId: number,
  expected?: ExpectedVersions,
): Promise<{ page: Page; existing: Map<number, PageBlock> }> {
  const page = expectingVersion(await deps.pagesService.get(actor, pageId), expected);
  return { page, existing: await instancesOf(deps.pages, pageId) };
}

/** The instance `pageBlockId` of the page, or the 404. */
export function instanceOn(existing: Map<number, PageBlock>, pageBlockId: number): PageBlock {
  const instance = existing.get(pageBlockId);
  if (!instance) throw notFound(`Block instance ${pageBlockId} is not on this page.`);
  return instance;
}
