// Swagger UI at /docs works in a real browser under its Content-Security-Policy: every operation
// of the API document is listed, "Try it out" reaches the API, and the policy blocks no script,
// request or image. (It does block a transient <style> element Swagger UI inserts while it
// renders: the page is styled by its own stylesheet file, and works the same without it.)
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceChromiumSkip, CHROMIUM, CHROMIUM_LAUNCH_ARGS, REQUIRE_CHROMIUM } from '../support/chromium.js';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { startInstance, type Instance } from '../support/instance.js';

announceChromiumSkip('Swagger UI in a browser');

it.runIf(REQUIRE_CHROMIUM && CHROMIUM === undefined)('Chromium is installed (REQUIRE_CHROMIUM=1)', () => {
  expect.fail('REQUIRE_CHROMIUM=1 but no Chromium');
});

interface Violation {
  directive: string;
  sample: string;
  blocked: string;
}

describe.runIf(CHROMIUM !== undefined)('/docs in Chromium', () => {
  let db: TestDatabase;
  let inst: Instance;
  let browser: Browser;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    inst = await startInstance(db);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_LAUNCH_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('lists every operation and runs one; no script, request or image is blocked', async () => {
    const spec = (await inst.request('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(spec.paths).flatMap((methods) =>
      Object.keys(methods).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)),
    ).length;
    const page = await browser.newPage();
    try {
      // The page's own context: written as text, as this file is compiled without the DOM's types.
      await page.addInitScript({
        content:
          'window.violations = []; document.addEventListener("securitypolicyviolation", (e) => ' +
          'window.violations.push({ directive: e.violatedDirective, sample: e.sample, blocked: e.blockedURI }));',
      });
      await page.goto(`${inst.url}/docs`);
      await page.waitForSelector('.swagger-ui .opblock');
      expect(await page.locator('.opblock').count()).toBe(operations);
      // ping needs no credentials: "Try it out", "Execute", and its answer is shown.
      const ping = page.locator('.opblock', { hasText: '/api/core/system/ping' }).first();
      await ping.locator('.opblock-summary').click();
      await ping.locator('button.try-out__btn').click();
      await ping.locator('button.execute').click();
      await ping.locator('.responses-table.live-responses-table').waitFor();
      expect(await ping.locator('.live-responses-table tbody .response-col_status').first().textContent()).toContain(
        '200',
      );
      const violations = (await page.evaluate('window.violations')) as Violation[];
      expect(violations.filter((v) => v.directive !== 'style-src-elem')).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
