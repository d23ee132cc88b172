import { IdParams } from '../http/schemas/common.js';
import { PublishBody, ScheduleBody } from '../http/schemas/publishing.js';
import type { ToolRoute } from './tool-route.js';

/** The tools that send a page to its site's CMS, now or at a time, and read where it stands. */
export const PUBLICATION_TOOLS: readonly ToolRoute[] = [
  {
    name: 'publish_page',
    description:
      'First publication of a page to its site’s CMS. Articles need `rubric_ids` (at least one id from the CMS); ' +
      'other kinds take no fields. Already published: use publish_update.',
    method: 'POST',
    path: '/pages/:id/publish',
    params: IdParams,
    body: PublishBody,
  },
  {
    name: 'publish_update',
    description:
      'Send a published page again after changes (its HTML, CSS and JS are regenerated); metadata changes only where sent. Never published: use publish_page.',
    method: 'POST',
    path: '/pages/:id/publish-update',
    params: IdParams,
    body: PublishBody,
  },
  {
    name: 'schedule_publication',
    description:
      'Publish a page at a time (`publish_at`, ISO 8601 with its offset, in the future), with publish_page’s fields; ' +
      'a published page gets publish_update then. Checked now as publishing would be; get_publication shows ' +
      '`scheduled_at`, then `last_scheduled_run` (published, or failed with the CMS’s message and the tries).',
    method: 'POST',
    path: '/pages/:id/schedule',
    params: IdParams,
    body: ScheduleBody,
  },
  {
    name: 'unschedule_publication',
    description: 'Cancel a page’s scheduled publication before its time (409 when none is pending).',
    method: 'DELETE',
    path: '/pages/:id/schedule',
    params: IdParams,
  },
  {
    name: 'get_publication',
    description: 'Whether a page is published, with its external id and slug at the CMS and the dates.',
    method: 'GET',
    path: '/pages/:id/publication',
    params: IdParams,
  },
];
