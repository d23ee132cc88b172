/** The webhook operations' entries of `OPERATIONS` (see operations.ts), kept apart for the file's size. */
export const WEBHOOK_OPERATIONS: Readonly<Record<string, { id: string; use: string }>> = {
  'GET /webhooks': {
    id: 'listWebhooks',
    use: 'Use it to see where events go and which endpoints were disabled, and why.',
  },
  'POST /webhooks': {
    id: 'createWebhook',
    use: 'Use it to have a URL told of changes (a site build, a CDN purge, a chat channel) instead of polling; keep the secret it answers.',
  },
  'GET /webhooks/{id}': {
    id: 'getWebhook',
    use: 'Use it to read one webhook: its URL, events and whether it is enabled.',
  },
  'PUT /webhooks/{id}': {
    id: 'updateWebhook',
    use: 'Use it to change what a webhook receives, or to enable it again once its receiver works.',
  },
  'DELETE /webhooks/{id}': { id: 'deleteWebhook', use: 'Use it when a receiver should hear nothing more.' },
  'POST /webhooks/{id}/secret': {
    id: 'rotateWebhookSecret',
    use: 'Use it when the secret may have leaked: the new one signs every delivery from now on.',
  },
  'GET /webhooks/{id}/deliveries': {
    id: 'listWebhookDeliveries',
    use: 'Use it to see what was sent, each attempt’s status, time and answer, when a receiver missed something.',
  },
  'POST /webhooks/{id}/deliveries/{did}/redeliver': {
    id: 'redeliverWebhookDelivery',
    use: 'Use it to send a delivery again once its receiver is fixed (the same message id: receivers can drop a repeat).',
  },
  'POST /webhooks/{id}/test': {
    id: 'testWebhook',
    use: 'Use it right after creating a webhook, to check that the receiver gets and verifies a delivery.',
  },
};
