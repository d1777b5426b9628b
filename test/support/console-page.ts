// What the console's browser tests share: a watched page, sign-in, a screen opened, and the
// checks of a page as it is (axe-core, layout shift, sideways scrolling).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { REPO_ROOT } from './cli-child.js';

const AXE = readFileSync(join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core's serious and critical violations on the page, one line each, naming `where`. */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  const found = (await page.evaluate('axe.run().then((r) => r.violations)')) as AxeViolation[];
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export interface ConsoleOpenOptions {
  width: number;
  colorScheme: 'light' | 'dark';
  /** Collects requests to any origin but the server's. */
  foreign: string[];
  /** Collects the page's Content-Security-Policy violations. */
  violations: string[];
}

/** A fresh browser context and page of the given width, watched for foreign requests and CSP violations. */
export async function openConsole(
  browser: Browser,
  serverUrl: string,
  { width, colorScheme, foreign, violations }: ConsoleOpenOptions,
): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await ctx.newPage();
  const origin = new URL(serverUrl).origin;
  page.on('request', (req) => {
    const url = new URL(req.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin) foreign.push(req.url());
  });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return { ctx, page };
}

export async function signInAs(page: Page, serverUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${serverUrl}/admin/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Opens screen `id` (#/id) and waits for its heading and for its placeholders to be gone. */
export async function openScreen(page: Page, serverUrl: string, id: string, heading: string): Promise<void> {
  await page.goto(`${serverUrl}/admin/#/${id}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await expect.poll(() => page.locator('.skeleton').count(), { timeout: 10_000 }).toBe(0);
}

/** The page's cumulative layout shift so far (CLS "good" is under 0.1). */
export async function layoutShift(page: Page): Promise<number> {
  return (await page.evaluate(
    `new Promise((resolve) => {
      let sum = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
      setTimeout(() => resolve(sum), 300);
    })`,
  )) as number;
}

/** '' when the page does not scroll sideways (scrollWidth <= clientWidth); else how far it does
 *  and the elements reaching past the page's width, by tag, class and width, so a failure says where. */
export async function sidewaysOverflow(page: Page): Promise<string> {
  return (await page.evaluate(`(() => {
    const root = document.documentElement;
    const overflow = root.scrollWidth - root.clientWidth;
    if (overflow <= 0) return '';
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 8)
      .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') +
        ' ' + Math.round(e.getBoundingClientRect().width) + 'px');
    return overflow + ' px too wide: ' + wide.join(', ');
  })()`)) as string;
}
