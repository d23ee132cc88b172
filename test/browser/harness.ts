/**
 * The browser tests' real parts: the built service (`node dist/main.js`, the
 * way `npm start` runs it) on a free port over SQLite or, with DATABASE_URL,
 * a private PostgreSQL schema; the fake fourcms on loopback; Debian's
 * Chromium driven by playwright-core (never a downloaded browser).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { dropPostgresSchema } from '../../src/db/dialects/postgres.js';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';

export const ADMIN = { email: 'admin@pageblocks.test', password: 'admin-password-1' };
export const SCREENSHOTS = 'test/browser/screenshots';
export const WIDTHS = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const;

export interface Service {
  url: string;
  output(): string;
  close(): Promise<void>;
}

/** `node dist/main.js` on port 0; `npm run test:browser` builds first. */
/** A port free now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export async function startService(env: Record<string, string> = {}): Promise<Service> {
  // On a port known before it starts, and told its own public URL: uploads' URLs point back to it
  // (with PORT=0 they would name port 0).
  const port = env.PORT ?? String(await freePort());
  const dataDir = await mkdtemp(join(tmpdir(), 'pageblocks-browser-'));
  const databaseUrl = process.env.DATABASE_URL;
  const schema = databaseUrl ? `test_${randomBytes(6).toString('hex')}` : '';
  const child: ChildProcess = spawn(process.execPath, ['dist/main.js'], {
    env: {
      ...process.env,
      PORT: port,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_SCHEMA: schema,
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      PROVIDER_ALLOW_PRIVATE: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 60_000);
      child.once('exit', (code) => reject(new Error(`the service exited with ${code}:\n${output}`)));
      child.stdout!.on('data', () => {
        const match = /listening at (http:\/\/[\d.]+:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    return { url, output: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export function startFakeProvider(): Promise<FakeFourcms> {
  return startFakeFourcms({ port: 0, host: '127.0.0.1' });
}

export async function launchBrowser(): Promise<Browser> {
  // playwright-core gives the browser a fresh temporary profile (user-data-dir) of its own.
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: WIDTHS.desktop, locale: 'en-GB', timezoneId: 'UTC' });
  context.setDefaultTimeout(15_000);
  return context;
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core on the page as it stands: the serious and critical violations (WCAG 2.x A and AA rules). */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** axe-core on the page as it stands: every violation of every impact (WCAG 2.x A and AA rules, best practices). */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // A dialog still fading in has text at part opacity, which axe reads as low contrast: judge the screen at rest.
  // No animation running or about to start, and every dialog shown fully opaque: a transition that has not
  // started yet (Mantine's first frame) holds its dialog at opacity 0 with no animation to wait for.
  await page.waitForFunction(() => {
    if (document.getAnimations().some((a) => a.playState === 'running' || a.pending)) return false;
    const opaque = (element: Element) => {
      for (let e: Element | null = element; e; e = e.parentElement) {
        if (Number(getComputedStyle(e).opacity) < 1) return false;
      }
      return true;
    };
    return Array.from(document.querySelectorAll('[role="dialog"]'))
      .filter((d) => d.getClientRects().length > 0)
      .every(opaque);
  });
  // Evaluated, not added as a script tag: the app's CSP refuses inline scripts (and should).
  await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } })
      .axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    }
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations;
}

/**
 * A main screen at both widths: no serious axe violation at either, and a
 * screenshot of the whole page at each under test/browser/screenshots/ for a reviewer.
 * Returns the violations (empty when all is well) so the test can print them.
 */
export async function checkScreen(page: Page, name: string): Promise<Violation[]> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const found: Violation[] = [];
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    // Let Mantine's transitions (the navbar sliding away at 390 px) finish first.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    for (const violation of await seriousViolations(page))
      found.push({ ...violation, id: `${violation.id} (${label})` });
    // A viewport as tall as the page instead of a full-page screenshot:
    // Chromium does not paint a sandboxed (out-of-process) iframe that lies
    // below the fold, so the previews came out blank at 390 px.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize(WIDTHS.desktop);
  return found;
}

/**
 * What scrolls sideways at 390 px: the page itself, or any element that
 * scrolls on the x axis (a table in a scroll container). Empty when the
 * screen fits, as every screen should (tables become cards there).
 */
export async function sidewaysScrollers(page: Page): Promise<string[]> {
  await page.setViewportSize(WIDTHS.mobile);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const found = await page.evaluate(() => {
    const describe = (node: Element) =>
      `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.getAttribute('aria-label') ? `[aria-label="${node.getAttribute('aria-label')}"]` : ''}`;
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) out.push(`the page (${root.scrollWidth} px wide)`);
    for (const node of Array.from(document.body.querySelectorAll('*'))) {
      const overflow = getComputedStyle(node).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && node.scrollWidth > node.clientWidth + 1)
        out.push(describe(node));
    }
    return out;
  });
  await page.setViewportSize(WIDTHS.desktop);
  return found;
}

/** A call on the session contour with the browser's cookie (and the Origin its CSRF check wants); throws on a refusal. */
export async function sessionCall(
  service: Service,
  request: APIRequestContext,
  method: string,
  path: string,
  data?: unknown,
): Promise<any> {
  const response = await request.fetch(path, { method, data, headers: { origin: service.url } });
  const body = response.status() === 204 ? null : await response.json();
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Where a node of a preview is on the screen: the preview frame's box (it is
 * scaled down to fit) plus the node's place in the rendered page, scaled.
 * Playwright's own hover and click miss nodes in a scaled, nested sandboxed
 * frame (they aim at unscaled coordinates), so the tests move the mouse there.
 */
export async function previewPoint(page: Page, frameTitle: string, node: Locator): Promise<{ x: number; y: number }> {
  const outer = (await page.locator(`iframe[title="${frameTitle}"]`).boundingBox())!;
  const rect = await node.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, width: window.innerWidth };
  });
  const scale = outer.width / rect.width;
  return { x: outer.x + rect.x * scale, y: outer.y + rect.y * scale };
}
