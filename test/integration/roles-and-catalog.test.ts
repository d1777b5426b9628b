// Only roles something checks may be granted (system roles, app_<name> of an installed
// app, roles an installed app's SRS acl names), over the API and the CLI; revoking stays free.
// GET /api/srs lists what the caller may use, decided by the same rules as a report request.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, dropTestDatabase } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { runCli, said } from '../support/cli-child.js';

const INVOICE = `<srs label="Invoice">
  <def>
    <itm model="param" name="order_id" type="int" label="Order number">1001</itm>
    <itm model="param" name="note"/>
    <itm model="command" name="invoice" opts="dtsingle">SELECT @order_id AS id, @note AS note</itm>
  </def>
</srs>`;
// Its srssetup needs lab_secret: a caller without it gets a 403 for every report of it.
const SECRET = `<srs label="Secret">
  <def>
    <itm model="command" name="srssetup" acl="lab_secret">SELECT 1</itm>
    <itm model="command" name="rows" acl="lab_auditor">SELECT 2 AS n</itm>
  </def>
</srs>`;
const BROKEN = '<srs label="Broken"><def></def></srs>';
const OTHER = `<srs><def><itm model="command" name="x">SELECT 1 AS x</itm></def></srs>`;

describe.each(testDatabaseKinds())('valid roles and GET /api/srs on %s', (kind) => {
  let f: AccountsFixture;

  beforeAll(async () => {
    f = await startAccountsFixture(kind);
    const put = (path: string, text: string) => {
      mkdirSync(join(f.appsDir, path, '..'), { recursive: true });
      writeFileSync(join(f.appsDir, path), text);
    };
    put('demo/srs/1-invoice.xml', INVOICE);
    put('demo/srs/2-secret.xml', SECRET);
    put('demo/srs/3-broken.xml', BROKEN);
    put('demo/srs/notes.txt', 'not a definition');
    // invoice.frx is made on the definition's data (its dictionary names the command "invoice");
    // summary.frx names no data of it, so it is not offered for the invoice.
    put(
      'demo/templates/invoice.frx',
      '<Report><Dictionary><JsonDataSourceConnection Name="Connection">' +
        '<JsonTableDataSource Name="JSON"><Column Name="item" DataType="FastReport.JsonBase">' +
        '<Column Name="invoice" DataType="FastReport.JsonBase"/></Column></JsonTableDataSource>' +
        '</JsonDataSourceConnection></Dictionary></Report>',
    );
    put('demo/templates/summary.frx', '<Report/>');
    put('other/srs/10-x.xml', OTHER);
    put('other/srs/9.xml', OTHER);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  const grant = (user: string, role: string) =>
    f.as(f.adminJwt, 'POST', `/api/core/account/role/grant/${user}/${role}`);
  const revoke = (user: string, role: string) =>
    f.as(f.adminJwt, 'POST', `/api/core/account/role/revoke/${user}/${role}`);

  it('refuses to grant a role nothing checks, listing the valid roles', async () => {
    await f.user('rita');
    for (const role of ['made_up_role', 'app_gone', 'App_demo', 'sys_admin']) {
      const r = await grant('rita', role);
      expect(r.status, `${role}: ${r.text}`).toBe(400);
      expect(r.body.data.code).toBe('role_unknown');
      for (const valid of ['sys_administrator', 'sys_tokens', 'srs_administrator', 'app_administrator'])
        expect(r.body.message).toContain(valid);
      expect(r.body.message).toContain('app_demo, app_other');
      expect(r.body.message).toContain('lab_secret');
      expect(r.body.data.details[0].message).toContain(`${role} is not a role`);
    }
    for (const role of ['app_demo', 'app_other', 'lab_secret', 'lab_auditor', 'srs_administrator']) {
      const r = await grant('rita', role);
      expect(r.status, `${role}: ${r.text}`).toBe(200);
    }
    const roles = (await f.as(f.adminJwt, 'GET', '/api/core/account/profile/rita')).body.data.roles;
    expect([...roles].sort()).toEqual(['app_demo', 'app_other', 'lab_auditor', 'lab_secret', 'srs_administrator']);
    // An unknown user is still a 404, whatever the role.
    expect((await grant('nobody', 'made_up_role')).status).toBe(404);
  });

  it('refuses unknown roles when an account is created with roles', async () => {
    const r = await f.as(f.adminJwt, 'POST', '/api/core/account/create', {
      username: 'sam',
      password: 'long-enough-1',
      roles: ['app_demo', 'nope'],
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.data.code).toBe('role_unknown');
    expect(r.body.message).toContain('Unknown role nope');
    const ok = await f.as(f.adminJwt, 'POST', '/api/core/account/create', {
      username: 'sam',
      password: 'long-enough-1',
      roles: ['app_demo'],
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('still revokes a role whose app was removed', async () => {
    await f.user('uli', { roles: ['app_removed', 'app_demo'] });
    const r = await revoke('uli', 'app_removed');
    expect(r.status, r.text).toBe(200);
    expect((await revoke('uli', 'app_removed')).body.data.code).toBe('role_not_assigned');
  });

  it('CLI: role grant refuses an unknown role with the list, revoke stays free, user add checks --role', async () => {
    const env = { DATA_DIR: f.db.dataDir, DATABASE_URL: f.db.databaseUrl, APPS_DIR: f.appsDir };
    await f.user('cleo', { roles: ['app_removed'] });
    const bad = await runCli(['role', 'grant', 'cleo', 'made_up_role'], { env });
    expect(bad.code, said(bad)).toBe(2);
    expect(bad.stderr).toMatch(/Unknown role made_up_role: a role must be one of sys_administrator, .*app_demo/);
    expect(bad.stderr).toContain('lab_secret');
    const good = await runCli(['role', 'grant', 'cleo', 'lab_secret'], { env });
    expect(good.code, said(good)).toBe(0);
    const gone = await runCli(['role', 'revoke', 'cleo', 'app_removed'], { env });
    expect(gone.code, said(gone)).toBe(0);
    expect(gone.stdout).toContain('revoked app_removed from cleo');
    const add = await runCli(['user', 'add', 'dina', '--password-stdin', '--role', 'app_nowhere'], {
      env,
      input: 'a long enough password',
    });
    expect(add.code, said(add)).toBe(2);
    expect(add.stderr).toContain('Unknown role app_nowhere');
  });

  describe('GET /api/srs', () => {
    const catalog = async (jwt: string | null) => f.as(jwt, 'GET', '/api/srs');

    it('needs credentials, and is in the OpenAPI document with its schema', async () => {
      const r = await catalog(null);
      expect(r.status).toBe(401);
      const doc = (await f.inst.request('/openapi.json')).body;
      const op = doc.paths['/api/srs']?.get;
      expect(op?.security?.length).toBeGreaterThan(0);
      const schema = op.responses['200'].content['application/json'].schema;
      const app = schema.properties.data.properties.apps.items;
      expect(Object.keys(app.properties).sort()).toEqual(['definitions', 'errors', 'name', 'templates']);
      const definition = app.properties.definitions.items;
      expect(Object.keys(definition.properties).sort()).toEqual(['file', 'id', 'label', 'params', 'templates']);
      expect(definition.required).toContain('templates');
      expect(Object.keys(definition.properties.params.items.properties).sort()).toEqual([
        'default',
        'label',
        'name',
        'type',
      ]);
    });

    it('lists only the apps and reports the caller may use, with params and templates', async () => {
      const jwt = await f.user('dora', { roles: ['app_demo'] });
      const r = await catalog(jwt);
      expect(r.status, r.text).toBe(200);
      expect(r.body.success).toBe(true);
      expect(r.body.data).toEqual({
        apps: [
          {
            name: 'demo',
            definitions: [
              {
                id: '1',
                label: 'Invoice',
                file: 'srs/1-invoice.xml',
                params: [
                  { name: 'order_id', type: 'int', default: '1001', label: 'Order number' },
                  { name: 'note', type: 'string', default: null, label: null },
                ],
                templates: ['invoice'],
              },
            ],
            templates: ['invoice', 'summary'],
          },
        ],
      });
      // The listing agrees with what the report requests decide.
      const secret = await f.as(jwt, 'GET', '/api/srs/2?app_name=demo');
      expect(secret.status).toBe(200); // describing is allowed…
      const data = await f.as(jwt, 'GET', '/api/srs/2/data.json?app_name=demo');
      expect(data.status).toBe(403); // …running is not: its srssetup needs lab_secret
      expect((await f.as(jwt, 'GET', '/api/srs/1?app_name=other')).status).toBe(403);
    });

    it('grows with the roles: an acl role, app_administrator, srs_administrator (who sees broken files)', async () => {
      const lab = await f.user('lab', { roles: ['app_demo', 'lab_secret'] });
      const labApps = (await catalog(lab)).body.data.apps;
      expect(labApps.map((a: any) => a.name)).toEqual(['demo']);
      expect(labApps[0].definitions.map((d: any) => d.id)).toEqual(['1', '2']);
      expect(labApps[0].errors).toBeUndefined();

      const admin = (await catalog(f.adminJwt)).body;
      expect(admin.data.apps.map((a: any) => a.name)).toEqual(['demo', 'other']);
      expect(admin.message).toBe('2 apps, 3 reports');
      // The bootstrap administrator holds srs_administrator but not lab_secret.
      const demo = admin.data.apps[0];
      expect(demo.definitions.map((d: any) => d.id)).toEqual(['1']);
      expect(demo.errors).toHaveLength(1);
      expect(demo.errors[0]).toContain('srs/3-broken.xml');
      const other = admin.data.apps[1];
      expect(other.definitions.map((d: any) => d.id)).toEqual(['9', '10']);
      expect(other.definitions[0].label).toBe('9');
      expect(other.definitions[0].templates).toEqual([]); // the app has no template at all
      expect(other.templates).toEqual([]);
      expect(other.errors).toEqual([]);

      const none = await f.user('nemo');
      expect((await catalog(none)).body.data).toEqual({ apps: [] });
    });

    it("a scoped token's listing follows its scope", async () => {
      const jwt = await f.user('tess', { roles: ['app_demo', 'app_other', 'sys_tokens'] });
      const made = await f.as(jwt, 'POST', '/api/core/token/create/other-only?roles=app_other');
      expect(made.status, made.text).toBe(201);
      const r = await f.inst.request('/api/srs', {
        headers: { Authorization: `Bearer ${made.body.data.item.value}` },
      });
      expect(r.body.data.apps.map((a: any) => a.name)).toEqual(['other']);
      expect((await catalog(jwt)).body.data.apps.map((a: any) => a.name)).toEqual(['demo', 'other']);
    });
  });
});
