import type { PagesRepository } from '../pages/pages.js';
import type { UpgradeSetRecord, UpgradeSetsRepository } from '../pages/upgrade-sets.js';
import type { Outbox, WebhookEvent } from './webhooks.js';

/**
 * The page repository as the services that change a page's instances see it:
 * each of those writes runs with its `page.updated` in one transaction, the
 * event made when the write moved the page's version (a refused one makes
 * none; an upgrade-all that upgraded nothing still makes its version, and so
 * its event). `data.change` names the write. Page
 * creation, its `PUT` and its deletion make their own events (PagesService).
 */
export function withPageEvents(pages: PagesRepository, outbox: Outbox): PagesRepository {
  return {
    ...pages,
    insertBlocks: (input) => outbox.pageWrite(input.pageId, 'blocks.added', () => pages.insertBlocks(input)),
    moveBlock: (input) => outbox.pageWrite(input.pageId, 'block.moved', () => pages.moveBlock(input)),
    deleteBlock: (input) => outbox.pageWrite(input.pageId, 'block.removed', () => pages.deleteBlock(input)),
    updateBlock: (input) => outbox.pageWrite(input.pageId, 'block.values', () => pages.updateBlock(input)),
    replaceBlock: (input) => outbox.pageWrite(input.pageId, 'block.replaced', () => pages.replaceBlock(input)),
    repin: (input) => outbox.pageWrite(input.pageId, 'blocks.upgraded', () => pages.repin(input)),
    withPageLock: (pageId, work, expected) =>
      outbox.pageWrite(pageId, 'blocks.upgraded', () => pages.withPageLock(pageId, work, expected)),
  };
}

/** One `page.updated` for each page of a set, as the set left it (`data.change`, the set's id and block). */
const setEvents =
  (change: 'upgrade_set.applied' | 'upgrade_set.reverted') =>
  (set: UpgradeSetRecord): WebhookEvent[] =>
    set.pages.map((page) => ({
      pageId: page.page_id,
      type: 'page.updated',
      data: { change, upgrade_set_id: set.id, block_id: set.block_id },
    }));

/**
 * Upgrade sets as their service sees them: a set applied or reverted writes
 * its pages and their `page.updated` events in one transaction (a refused set
 * throws and stores none; a dry run rolls them back with the pages).
 */
export function withUpgradeSetEvents(sets: UpgradeSetsRepository, outbox: Outbox): UpgradeSetsRepository {
  return {
    ...sets,
    apply: (input) => outbox.within(() => sets.apply(input), setEvents('upgrade_set.applied')),
    revert: (input) => outbox.within(() => sets.revert(input), setEvents('upgrade_set.reverted')),
  };
}
