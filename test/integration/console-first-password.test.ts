// The console's password flows in Chromium, on an instance of their own whose administrator got
// a generated password: the first sign-in must set a new one (the server refuses everything else
// meanwhile), lands on Accounts and removes the password file; then the password is changed
// again on My profile and the new one signs in. Skipped without Chromium, like the console test.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_LAUNCH_ARGS } from '../support/chromium.js';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { openConsole, openScreen, seriousViolations, sidewaysOverflow, signInAs } from '../support/console-page.js';

const CHOSEN = 'the administrator chose this';
const CHANGED = 'and then changed it again';

describe.runIf(CHROMIUM !== undefined)('the console: first password and password change', () => {
  let db: TestDatabase;
  let inst: Instance;
  let browser: Browser;
  const foreign: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    // No PLATFORM_ADMIN_PASSWORD: the password is generated into the data directory.
    inst = await startInstance(db, { PLATFORM_ADMIN_PASSWORD: '' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_LAUNCH_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('the first sign-in sets a new password, lands on Accounts; My profile changes it again', async () => {
    const file = join(db.dataDir, 'initial-admin-password');
    const generated = readFileSync(file, 'utf8').trim();
    const { ctx, page } = await openConsole(browser, inst.url, {
      width: 360,
      colorScheme: 'light',
      foreign,
      violations,
    });
    await page.goto(`${inst.url}/admin/`);
    // The sign-in page says where the first password is.
    await expect.poll(() => page.locator('main').textContent()).toContain('initial-admin-password');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(generated);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Set your password' }).waitFor();
    expect(await seriousViolations(page, 'first password')).toEqual([]);
    expect(await sidewaysOverflow(page)).toBe('');
    // The server refuses everything else to this session, whatever the page does.
    const refused = await page.evaluate(
      "fetch('../api/core/account/list').then(async (r) => [r.status, (await r.json()).data.code])",
    );
    expect(refused).toEqual([403, 'password_change_required']);
    await page.getByLabel('Current password').fill(generated);
    await page.getByLabel('New password', { exact: true }).fill(CHOSEN);
    await page.getByLabel('New password again').fill(CHOSEN);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    expect(existsSync(file)).toBe(false);
    expect((await inst.login(ADMIN.username, generated)).status).toBe(401);
    expect((await inst.login(ADMIN.username, CHOSEN)).body.data.password_change_required).toBe(false);

    // My profile: the repetition must match; then the change keeps the console signed in.
    await openScreen(page, inst.url, 'profile', 'My profile');
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(CHOSEN);
    await form.getByLabel('New password', { exact: true }).fill(CHANGED);
    await form.getByLabel('New password again').fill(`${CHANGED}!`);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('differ');
    await form.getByLabel('New password again').fill(CHANGED);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    expect(await seriousViolations(page, 'profile: password changed')).toEqual([]);
    expect(await sidewaysOverflow(page)).toBe('');
    await openScreen(page, inst.url, 'profile', 'My profile');
    expect((await inst.login(ADMIN.username, CHOSEN)).status).toBe(401);
    // Signed out, then in again with the new password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signInAs(page, inst.url, ADMIN.username, CHANGED);
    await ctx.close();
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
  }, 90_000);
});
