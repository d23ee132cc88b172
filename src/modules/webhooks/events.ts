import type { PageRef, WebhookEvent, WebhookEventType } from './webhooks.js';

/** A page's event: who owns it, and what a receiver needs to find it again. */
export const pageEvent = (
  type: WebhookEventType,
  page: PageRef,
  more: Record<string, unknown> = {},
): WebhookEvent & { userId: number } => ({
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
