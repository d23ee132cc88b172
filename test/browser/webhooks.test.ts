/**
 * The Webhooks screen: add one (its secret shown once), send a test, read the
 * delivery log (each try's answer, the request sent), see why an endpoint was
 * disabled, enable it again and redeliver what failed; at 1280 and 390 px,
 * axe clean at every impact.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFixture } from './fixture.js';
import { axeViolations, SCREENSHOTS, WIDTHS } from './harness.js';

const app = browserFixture({
  user: 'hooks',
  env: { JOB_RETRY_LIMIT: '1', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5', WEBHOOK_DISABLE_AFTER: '1' },
});

/** A receiver that answers 500 until told to work. */
let receiver: Server;
let receiverUrl: string;
let working = false;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(working ? 200 : 500, { 'content-type': 'text/plain' });
      response.end(working ? 'thanks' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise((resolve) => receiver?.close(resolve)));

async function screenshots(name: string) {
  const { page } = app;
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

describe('the Webhooks screen', () => {
  it(
    'adds a webhook, shows its secret once, logs a failed test, enables it again and redelivers',
    { timeout: 120_000 },
    async () => {
      const { page } = app;
      await page.goto('/webhooks');
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      const form = page.getByRole('form', { name: 'Add a webhook' });
      await form.getByRole('textbox', { name: /^URL/ }).fill(receiverUrl);
      await form.getByRole('textbox', { name: /^Description/ }).fill('Site build');
      await form.getByRole('checkbox', { name: /A page was created/ }).check();
      await form.getByRole('button', { name: 'Add webhook' }).click();
      const shown = page.getByRole('status').filter({ hasText: 'Copy its signing secret now' });
      const secret = (await shown.getByLabel('The signing secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      const stored = await app.call('GET', '/api/webhooks');
      expect(stored.data[0]).toMatchObject({ url: receiverUrl, events: ['page.published', 'page.created'] });
      expect(JSON.stringify(stored)).not.toContain(secret);
      await screenshots('webhooks-created');
      expect(await axeViolations(page)).toEqual([]);
      await shown.getByRole('button', { name: 'I have stored it' }).click();
      await shown.waitFor({ state: 'detached' });

      // A test to a receiver that is down: tried twice, and failed.
      const item = page.getByRole('listitem', { name: receiverUrl });
      await item.getByRole('button', { name: 'Send a test' }).click();
      const log = item.getByRole('region', { name: `Delivery log of ${receiverUrl}` });
      const delivery = log.getByRole('listitem').first();
      await delivery.getByText('Failed').waitFor({ timeout: 30_000 });
      expect(received.length).toBe(2);
      expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,/);
      // A page created: that event fails too, and the endpoint is disabled, with the reason.
      const site = await app.call('POST', '/api/sites', { name: 'Hooked' });
      await app.call('POST', '/api/pages', { name: 'Hooked page', site_id: site.id, blocks: [] });
      await expect
        .poll(async () => (await app.call('GET', '/api/webhooks')).data[0].enabled, { timeout: 30_000, interval: 500 })
        .toBe(false);
      await page.reload();
      await item.getByText('Disabled', { exact: true }).waitFor();
      await item
        .getByRole('note')
        .getByText(/Why: The last delivery failed/)
        .waitFor();
      await item.getByRole('button', { name: 'Delivery log' }).click();
      // The test is the older delivery now.
      const test = log.getByRole('listitem').filter({ hasText: 'webhook.test' });
      await test.getByRole('button', { name: 'Show request and answers' }).click();
      await test.getByRole('table', { name: 'Tries, oldest first' }).getByText('receiver is down').first().waitFor();
      await test.getByText('"type": "webhook.test"').waitFor();
      await screenshots('webhooks-failed');
      expect(await axeViolations(page)).toEqual([]);

      // The receiver works again: enabled again, the failed delivery sent again, delivered.
      working = true;
      await item.getByRole('button', { name: 'Enable again' }).click();
      await item.getByText('Enabled', { exact: true }).waitFor();
      const before = received.length;
      await test.getByRole('button', { name: 'Redeliver' }).click();
      await test.getByText('Delivered').waitFor({ timeout: 30_000 });
      expect(received.length).toBe(before + 1);
      // The same message id as the first try: a receiver can drop a repeat.
      expect(received[before]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
      expect((await app.call('GET', '/api/webhooks')).data[0].enabled).toBe(true);
    },
  );
});
