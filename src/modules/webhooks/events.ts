import type { Page } from '../pages/pages.js';
import type { WebhookEvent, WebhookEventType } from './webhooks.js';

/** A page's event: who owns it, and what a receiver needs to find it again. */
export const pageEvent = (
  type: WebhookEventType,
  page: Pick<Page, 'id' | 'owner_id' | 'site_id' | 'name' | 'slug' | 'kind' | 'version'>,
  more: Record<string, unknown> = {},
): WebhookEvent => ({
  userId: page.owner_id,
  type,
  data: {
    page_id: page.id,
    site_id: page.site_id,
    name: page.name,
    slug: page.slug,
    kind: page.kind,
    version: page.version,
    ...more,
  },
});
