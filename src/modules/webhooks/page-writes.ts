import type { PagesRepository } from '../pages/pages.js';
import type { Outbox } from './webhooks.js';

/**
 * The page repository as the services that change a page's instances see it:
 * each of those writes runs with its `page.updated` in one transaction, the
 * event made only when the write moved the page's version (an upgrade-all
 * that upgraded nothing makes none). `data.change` names the write. Page
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
