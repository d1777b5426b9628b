// The admin console in headless Chromium, as an administrator and as a plain user. The
// tests assert on what the page shows; every screen is checked with axe-core (no serious or
// critical violation), at 1440 and 360 px, in light and dark; the page may make no request to
// another origin and must work under its own Content-Security-Policy (any violation fails).
// Screenshots of each screen go to test-output/console/ (not committed). Skipped with a message
// without Chromium, a failure under REQUIRE_CHROMIUM=1.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceChromiumSkip, CHROMIUM, CHROMIUM_LAUNCH_ARGS, REQUIRE_CHROMIUM } from '../support/chromium.js';
import { dropTestDatabase } from '../support/databases.js';
import { REPO_ROOT } from '../support/cli-child.js';
import { ADMIN } from '../support/instance.js';
import { POPPLER_AVAILABLE, pdfText } from '../support/poppler.js';
import {
  layoutShift,
  openConsole,
  openScreen,
  seriousViolations,
  sidewaysOverflow,
  signInAs,
} from '../support/console-page.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

announceChromiumSkip('the admin console in a browser');

const SCREENSHOTS = join(REPO_ROOT, 'test-output', 'console');
/** A team name that is markup: the console must show it as text. */
const TEAM_MARKUP = '<img src=x onerror="document.title=1">Ops & <b>Co</b>';

it.runIf(!CHROMIUM && REQUIRE_CHROMIUM)('needs Chromium (REQUIRE_CHROMIUM=1)', () => {
  expect.fail('REQUIRE_CHROMIUM=1 but no Chromium');
});

describe.runIf(CHROMIUM !== undefined)('the admin console in Chromium', () => {
  let f: SrsFixture;
  let browser: Browser;
  /** Requests to any origin but the server's, and CSP violations, of every page of the run. */
  const foreign: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    f = await startSrsFixture('sqlite');
    // A plain user with tokens: dora (app_demo) gets sys_tokens too.
    const grant = await f.as(f.adminJwt, '/api/core/account/role/grant/dora/sys_tokens', { method: 'POST' });
    expect(grant.status, grant.text).toBe(200);
    // Data on every screen, for the narrow-screen checks: tokens (long names, of two users), a team
    // whose name is markup (shown as text, never as markup), audit entries of all these.
    for (const [jwt, name] of [
      [f.adminJwt, 'nightly-export-to-the-warehouse-of-record'],
      [f.doraJwt, 'dora-reporting'],
    ] as const) {
      const made = await f.as(jwt, `/api/core/token/create/${name}?expires_in_days=30`, { method: 'POST' });
      expect(made.status, made.text).toBe(201);
    }
    const team = await f.as(f.adminJwt, '/api/core/team/create', {
      method: 'POST',
      json: { team_short: 'MARKUP', team_name: TEAM_MARKUP },
    });
    expect(team.status, team.text).toBe(201);
    // A report whose SQL fails: the console must say so in words.
    writeFileSync(
      join(f.appsDir, 'demo', 'srs', '91-broken.xml'),
      '<srs label="Broken"><def><itm model="command" name="rows">SELECT * FROM no_such_table</itm></def></srs>',
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_LAUNCH_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  const open = (width = 1440, colorScheme: 'light' | 'dark' = 'light') =>
    openConsole(browser, f.inst.url, { width, colorScheme, foreign, violations });
  const signIn = (page: Page, username: string, password: string) => signInAs(page, f.inst.url, username, password);
  const screen = (page: Page, id: string, heading: string) => openScreen(page, f.inst.url, id, heading);
  /** axe-core on the page as it is: no serious or critical violation. */
  const accessible = async (page: Page, where: string) => expect(await seriousViolations(page, where)).toEqual([]);

  it('serves the page under a strict CSP, its bundles hashed, compressed and cached for a year', async () => {
    const page = await fetch(`${f.inst.url}/admin/`, { headers: { 'accept-encoding': 'br' } });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    // Scripts: only the console's own bundle, no inline script, no eval. (Inline styles are allowed
    // for the report previews' srcdoc frames, which inherit this policy: see src/api/console.ts.)
    expect(csp.split('; ')).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp.split('; ').filter((d) => d.includes('unsafe-inline'))).toEqual(["style-src 'self' 'unsafe-inline'"]);
    expect(page.headers.get('content-encoding')).toBe('br');
    const html = await (await fetch(`${f.inst.url}/admin/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(2);
    for (const a of assets) {
      const r = await fetch(`${f.inst.url}/admin/${a}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toContain('immutable');
      expect(r.headers.get('content-encoding')).toBe('gzip');
    }
    expect((await fetch(`${f.inst.url}/admin/assets/nope.12345678.js`)).status).toBe(404);
    const redirect = await fetch(`${f.inst.url}/admin`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('admin/');
  });

  it('says why a sign-in failed, in words', async () => {
    const { ctx, page } = await open();
    await page.goto(`${f.inst.url}/admin/`);
    await page.getByRole('heading', { name: 'Platform Core' }).waitFor();
    await accessible(page, 'sign-in');
    await page.screenshot({ path: join(SCREENSHOTS, 'sign-in-1440.png') });
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The username or the password is wrong');
    // Five wrong passwords lock an account (Settings:LockoutMaxFailedAttempts): said in words.
    await page.getByLabel('Username').fill('nemo');
    for (let i = 0; i < 6; i++) {
      await page.getByLabel('Password').fill(`wrong-${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
    }
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('This account is locked');
    // The console keeps no credential in the browser's storage.
    const stored = await page.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage)])');
    expect(stored).toBe('[[],[]]');
    await ctx.close();
  });

  it('as an administrator: tokens (the shown value works), system utilities, audit, profile, sign-out', async () => {
    const { ctx, page } = await open();
    await signIn(page, ADMIN.username, ADMIN.password);
    await expect.poll(() => page.locator('.session-expiry').textContent()).toMatch(/Session ends in \d+ h/);
    expect(await page.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage)])')).toBe(
      '[[],[]]',
    );
    const cookies = await ctx.cookies();
    expect(cookies.find((c) => c.name === 'ptoken')?.httpOnly).toBe(true);

    // Tokens: create one, read its value off the page, use it against the API.
    await screen(page, 'tokens', 'Tokens');
    await page.getByLabel('Name').fill('console-made');
    await page.getByLabel('Expires after (days)').fill('7');
    await page.getByRole('button', { name: 'Create token' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'you will not see it again' });
    await notice.waitFor();
    const value = (await page.getByTestId('token-value').textContent())?.trim() ?? '';
    expect(value.length).toBeGreaterThan(20);
    const ping = await fetch(`${f.inst.url}/api/core/system/ping`, { headers: { Authorization: `Token ${value}` } });
    const pinged = (await ping.json()) as { data: { items: { authenticated: boolean; username: string } } };
    expect(pinged.data.items).toMatchObject({ authenticated: true, username: ADMIN.username });
    const mine = page.getByRole('table', { name: 'My tokens' });
    await expect.poll(() => mine.textContent()).toContain('console-made');
    await accessible(page, 'tokens');
    await page.screenshot({ path: join(SCREENSHOTS, 'tokens-1440.png'), fullPage: true });
    // Delete it, through the confirmation.
    await mine.getByRole('button', { name: 'Delete token console-made' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this token?' });
    await dialog.waitFor();
    await accessible(page, 'tokens: delete dialog');
    await dialog.getByRole('button', { name: 'Delete token' }).click();
    await expect.poll(() => mine.textContent()).not.toContain('console-made');
    // Deleted: ping (which answers anyone) no longer knows the caller.
    const after = await fetch(`${f.inst.url}/api/core/system/ping`, { headers: { Authorization: `Token ${value}` } });
    expect(((await after.json()) as typeof pinged).data.items.authenticated).toBe(false);

    // System: ping, UUIDs, the markdown preview beside its sanitised output.
    await screen(page, 'system', 'System');
    await expect.poll(() => page.getByTestId('instance').textContent()).toContain('SQLite');
    await page.getByRole('button', { name: 'Ping the server' }).click();
    await expect.poll(() => page.locator('.result').textContent()).toContain(`authenticated as ${ADMIN.username}`);
    await page.getByLabel('How many').fill('3');
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect.poll(async () => (await page.getByTestId('uuids').textContent())?.split('\n').length).toBe(3);
    await page.getByLabel('Markdown', { exact: true }).fill('# Hello *there*\n\n<script>alert(1)</script>');
    // The first preview starts the preview worker: allowed more than the poll's default second.
    await expect
      .poll(() => page.getByTestId('preview-output').innerHTML(), { timeout: 15_000 })
      .toContain('<h1>Hello <em>there</em></h1>');
    expect(await page.getByTestId('preview-output').innerHTML()).not.toContain('<script');
    await accessible(page, 'system');
    await page.screenshot({ path: join(SCREENSHOTS, 'system-1440.png'), fullPage: true });

    // Audit: the token's creation and deletion are there; the filter narrows to one action.
    await screen(page, 'audit', 'Audit trail');
    const trail = page.getByRole('table', { name: 'Audit entries, newest first' });
    await expect.poll(() => trail.textContent()).toContain('token_delete');
    await page.getByLabel('Action').selectOption('token_create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(async () => [...new Set(await trail.locator('tbody tr td:nth-child(2)').allTextContents())])
      .toEqual(['token_create']);
    await accessible(page, 'audit');
    await page.screenshot({ path: join(SCREENSHOTS, 'audit-1440.png'), fullPage: true });

    // Profile: a field edited and saved comes back from the server.
    await screen(page, 'profile', 'My profile');
    await page.getByLabel('First name').fill('Rootie');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const profile = await f.as(f.adminJwt, '/api/core/account/profile');
    expect(profile.body.data.user.user_first_name).toBe('Rootie');
    await accessible(page, 'profile');
    await page.screenshot({ path: join(SCREENSHOTS, 'profile-1440.png'), fullPage: true });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await ctx.close();
  }, 120_000);

  it('accounts and teams: create an account, grant a role, lock and unlock it, put it in a team', async () => {
    const { ctx, page } = await open();
    await signIn(page, ADMIN.username, ADMIN.password);
    await screen(page, 'accounts', 'Accounts');
    await expect.poll(() => page.getByTestId('account-stats').textContent()).toMatch(/^\d+ accounts, \d+ locked/);
    await accessible(page, 'accounts');
    await page.screenshot({ path: join(SCREENSHOTS, 'accounts-1440.png'), fullPage: true });
    // Create: the new account's page opens.
    await page.getByRole('button', { name: 'New account' }).click();
    await page.getByLabel('Username').fill('carla');
    await page.getByLabel('Initial password').fill('pneyn-password-1');
    await page.getByLabel('First name').fill('Carla');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'carla' }).waitFor();
    await expect.poll(() => page.getByTestId('account-status').textContent()).toBe('active');
    // Grant a role from the list of grantable roles.
    await page.getByLabel('Grant a role').selectOption('sys_tokens');
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    await page.getByRole('button', { name: 'Revoke sys_tokens' }).waitFor();
    // (A fresh JWT: the sign-out of the test before ended every session of the administrator.)
    const roles = await f.as(await f.inst.jwtFor(ADMIN.username, ADMIN.password), '/api/core/account/profile/carla');
    expect(roles.body.data.roles).toContain('sys_tokens');
    // Lock: carla can no longer sign in; unlock: she can again.
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    await expect.poll(() => page.getByTestId('account-status').textContent()).toBe('locked');
    expect((await f.inst.login('carla', 'pneyn-password-1')).status).toBe(401);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(() => page.getByTestId('account-status').textContent()).toBe('active');
    expect((await f.inst.login('carla', 'pneyn-password-1')).status).toBe(200);
    // The cancel dialog says what cancelling does, and cancelling it changes nothing.
    await page.getByRole('button', { name: 'Cancel account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel the account carla?' });
    await expect.poll(() => dialog.textContent()).toContain('every session and API token of the account stops working');
    await accessible(page, 'account: cancel dialog');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect.poll(() => page.getByTestId('account-status').textContent()).toBe('active');
    // Her profile fields, edited by the administrator.
    await page.getByLabel('Last name').fill('Cortez');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // The account's audit entries are on its page.
    await expect
      .poll(() => page.getByRole('table', { name: 'The latest audit entries about carla' }).textContent())
      .toContain('profile_update');
    await accessible(page, 'account');
    await page.screenshot({ path: join(SCREENSHOTS, 'account-1440.png'), fullPage: true });
    // Search finds her in the directory.
    await screen(page, 'accounts', 'Accounts');
    await page.getByLabel('Search').fill('carl');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => page.getByRole('table').locator('tbody tr td:first-child').allTextContents())
      .toEqual(['carla']);
    // Teams: create one, add carla.
    await screen(page, 'teams', 'Teams');
    await page.getByLabel('Short name').fill('OPS');
    await page.getByLabel('Team name').fill('Operations');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('link', { name: 'OPS' }).click();
    await page.getByRole('heading', { name: 'Members of OPS' }).waitFor();
    await page.getByLabel('Add a member').fill('carla');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('button', { name: 'Remove carla' }).waitFor();
    await accessible(page, 'teams');
    await page.screenshot({ path: join(SCREENSHOTS, 'teams-1440.png'), fullPage: true });
    await ctx.close();
  }, 120_000);

  /** Each demo definition, the template it must open with, and a text only that template prints. */
  const DEMO_REPORTS = [
    { id: '1', label: 'Invoice', template: 'invoice', text: 'INVOICE' },
    { id: '2', label: 'Sales by customer', template: 'sales-by-customer', text: 'Sales by customer' },
    { id: '3', label: 'Customer directory', template: 'customer-directory', text: 'Customer directory' },
  ] as const;

  it('reports: each demo definition renders its own template, as PDF and preview, without picking one', async () => {
    const { ctx, page } = await open();
    await signIn(page, ADMIN.username, ADMIN.password);
    await screen(page, 'reports', 'Reports');
    for (const report of DEMO_REPORTS) {
      await page.getByRole('navigation', { name: 'Reports' }).getByRole('link', { name: report.label }).click();
      await page.getByRole('heading', { level: 2, name: report.label }).waitFor();
      // The picker is not touched: the definition's own template is chosen already.
      expect(await page.getByLabel('Template').inputValue()).toBe(report.template);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download PDF' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${report.template}.pdf`);
      const file = (await download.path()) as string;
      const pdf = readFileSync(file);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      if (POPPLER_AVAILABLE) {
        // The template's own text, and none of the other demo templates' titles.
        const text = pdfText(file);
        expect(text, report.label).toContain(report.text);
        for (const other of DEMO_REPORTS) if (other !== report) expect(text).not.toContain(other.text);
      }
      await page.getByRole('button', { name: 'Preview HTML' }).click();
      const frame = page.frameLocator('.report-preview iframe');
      await expect.poll(() => frame.locator('body').textContent(), { timeout: 20_000 }).toContain(report.text);
      expect(await page.locator('.report-preview iframe').getAttribute('sandbox')).toBe('');
    }

    // The invoice's params carry the definition's labels; another order by its number.
    await page.getByRole('link', { name: 'Invoice' }).click();
    await page.getByRole('heading', { level: 2, name: 'Invoice' }).waitFor();
    await page.getByLabel('Order number').fill('1004');
    await page.getByRole('button', { name: 'Preview HTML' }).click();
    const frame = page.frameLocator('.report-preview iframe');
    await expect.poll(() => frame.locator('body').textContent(), { timeout: 20_000 }).toContain('1004');
    // The data the template receives, as a tree.
    await page.getByRole('button', { name: 'Show the data' }).click();
    const tree = page.getByRole('region', { name: 'The data the template receives' });
    await expect.poll(() => tree.textContent()).toContain('invoice');
    await accessible(page, 'reports: invoice');
    await page.screenshot({ path: join(SCREENSHOTS, 'reports-1440.png'), fullPage: true });
    // A record that does not exist, and a report whose SQL fails: said in words.
    await page.getByLabel('Order number').fill('9999');
    await page.getByRole('button', { name: 'Preview HTML' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('There is no such record');
    await page.goto(`${f.inst.url}/admin/#/reports/demo/91`);
    await page.getByRole('heading', { level: 2, name: 'Broken' }).waitFor();
    // No template of the app is made for its data: said, and nothing renders a wrong one.
    await expect
      .poll(() => page.locator('.notice').first().textContent())
      .toContain('No template of the app demo fits');
    expect(await page.getByLabel('Template').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download PDF' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Show the data' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/One of the report's SQL commands failed[\s\S]*Command "rows" failed[\s\S]*request [\w-]+/);
    await ctx.close();
  }, 120_000);

  it('as a plain user: only their profile, their tokens and the system utilities', async () => {
    const { ctx, page } = await open();
    await signIn(page, 'dora', 'qben-password-1');
    const nav = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(nav).toEqual(['My profile', 'Tokens', 'Reports', 'System']);
    // A screen the user may not use is not shown, even by its address.
    await page.goto(`${f.inst.url}/admin/#/audit`);
    await page.getByRole('heading', { level: 1, name: 'My profile' }).waitFor();
    await screen(page, 'tokens', 'Tokens');
    expect(await page.getByRole('heading', { name: 'Tokens of all users' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('table', { name: 'My tokens' }).textContent()).toContain('dora-reporting');
    await accessible(page, 'tokens (plain user)');
    // Reports: only the apps of her roles (app_demo), not the other app.
    await screen(page, 'reports', 'Reports');
    const apps = await page.getByRole('navigation', { name: 'Reports' }).getByRole('heading').allTextContents();
    expect(apps).toEqual(['demo']);
    await accessible(page, 'reports (plain user)');
    await page.screenshot({ path: join(SCREENSHOTS, 'reports-plain-user-1440.png'), fullPage: true });
    await ctx.close();
  }, 60_000);

  it('works at 360 px and in dark mode, every screen accessible', async () => {
    for (const [width, scheme] of [
      [360, 'light'],
      [360, 'dark'],
      [1440, 'dark'],
    ] as const) {
      const { ctx, page } = await open(width, scheme);
      await page.goto(`${f.inst.url}/admin/`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await accessible(page, `sign-in at ${width} px, ${scheme}`);
      await page.screenshot({ path: join(SCREENSHOTS, `sign-in-${width}-${scheme}.png`) });
      await signIn(page, ADMIN.username, ADMIN.password);
      for (const [id, heading] of [
        ['accounts', 'Accounts'],
        ['accounts/dora', 'dora'],
        ['teams', 'Teams'],
        ['profile', 'My profile'],
        ['tokens', 'Tokens'],
        ['audit', 'Audit trail'],
        ['reports', 'Reports'],
        ['reports/demo/1', 'Reports'],
        ['system', 'System'],
      ] as const) {
        await screen(page, id, heading);
        if (id === 'tokens') await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(1);
        if (id === 'teams') {
          // The markup of a team name is text on the page, never elements.
          await expect.poll(() => page.locator('main').textContent()).toContain(TEAM_MARKUP);
          expect(await page.locator('main img, main b').count()).toBe(0);
        }
        if (id === 'reports/demo/1') {
          // The invoice's preview, zoomed out to fit a narrow screen.
          await page.getByRole('button', { name: 'Preview HTML' }).click();
          const preview = page.locator('.report-preview');
          const frame = page.frameLocator('.report-preview iframe');
          await expect.poll(() => frame.locator('body').textContent(), { timeout: 20_000 }).toContain('INVOICE');
          // The page is laid out at its own width inside the frame, and the frame scaled to fit.
          expect(
            await frame
              .locator('.p')
              .first()
              .evaluate((el) => el.getBoundingClientRect().width),
          ).toBeGreaterThan(700);
          const zoom = Number(await preview.getAttribute('data-zoom'));
          const boxWidth = await preview.evaluate((el) => el.clientWidth);
          const shown = (await page.locator('.report-preview iframe').boundingBox())!;
          expect(zoom).toBeLessThanOrEqual(1);
          expect(shown.width, `zoom ${zoom} in ${boxWidth} px`).toBeLessThanOrEqual(boxWidth + 1);
          if (width === 360) expect(zoom).toBeLessThan(0.5);
        }
        if (id === 'system')
          await expect.poll(() => page.getByTestId('preview-output').textContent()).toContain('Preview');
        // No layout shift while the data arrived: the placeholders have the final size (CLS "good" < 0.1).
        expect(await layoutShift(page), `layout shift of ${id} at ${width} px`).toBeLessThan(0.1);
        // Nothing wider than the screen: no sideways scrolling of the page itself.
        expect(await sidewaysOverflow(page), `${id} at ${width} px`).toBe('');
        await accessible(page, `${id} at ${width} px, ${scheme}`);
        const name = id.replaceAll('/', '-');
        await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
      }
      await ctx.close();
    }
  }, 180_000);

  it('made no request to another origin and broke no CSP rule', () => {
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
  });
});
