// A started instance for the SRS tests: APPS_DIR is a temp copy of the repo's demo app (seed,
// definitions, templates) plus the test definitions and templates below, and an app `other`.
// Users: the bootstrap administrator (every role), `dora` (app_demo only) and `nemo` (no app).
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount } from '../../src/accounts/account-service.js';
import { grantRole } from '../../src/accounts/roles-repository.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

export const REPO_APPS_DIR = fileURLToPath(new URL('../../apps/', import.meta.url));

/** A definition exercising params, srssetup, acl and dtsingle (see the tests for each). */
export const LAB_SRS = `<?xml version="1.0" encoding="utf-8"?>
<srs label="Lab">
  <def>
    <itm model="param" name="n" type="int">7</itm>
    <itm model="param" name="amount" type="decimal"/>
    <itm model="param" name="flag" type="bool">false</itm>
    <itm model="param" name="day" type="date"/>
    <itm model="param" name="text" type="string"/>
    <itm model="param" name="label">default label</itm>
    <itm model="param" name="raw"/>
    <itm model="command" name="srssetup">
      CREATE TEMP TABLE IF NOT EXISTS lab_setup (v VARCHAR(200));
      DELETE FROM lab_setup;
      INSERT INTO lab_setup (v) VALUES (@label)
    </itm>
    <itm model="command" name="echo" opts="dtsingle">
      SELECT @n AS n, @amount AS amount, CASE WHEN @flag THEN 'yes' ELSE 'no' END AS flag, @day AS day,
             @text AS text, COALESCE(@text, 'was null') AS text_or, @label AS label,
             @_username AS username, @_app_name AS app, (SELECT v FROM lab_setup) AS setup_value,
             '@n and :n in a literal' AS literal
    </itm>
    <itm model="command" name="matches">SELECT name FROM demo_customers WHERE name = @raw ORDER BY name</itm>
    <itm model="command" name="secret" acl="lab_secret,srs_administrator">SELECT 'classified' AS s</itm>
    <itm model="command" name="nothing" opts="dtsingle">SELECT 1 AS x FROM demo_customers WHERE 1 = 0</itm>
  </def>
</srs>
`;

/** A template over the lab data: every value of echo, the rows of matches. */
export const LAB_FRX =
  `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Lab">
  <Dictionary>
    <JsonDataSourceConnection Name="Connection">
      <JsonTableDataSource Name="JSON" DataType="FastReport.JsonBase" Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
  </Dictionary>
  <ReportPage Name="Page1">
    <ReportTitleBand Name="Title" Width="718.2" Height="56.7">
      <TextObject Name="Echo" Width="718.2" Height="37.8" CanGrow="true" Text="n=[JSON.item.echo.n] ` +
  `text=[JSON.item.echo.text] label=[JSON.item.echo.label] setup=[JSON.item.echo.setup_value] ` +
  `user=[JSON.item.echo.username]"/>
    </ReportTitleBand>
    <DataBand Name="Matches" Width="718.2" Height="18.9" DataSource="matches">
      <TextObject Name="Match" Width="718.2" Height="18.9" Text="match: [JSON.item.matches.item.name]"/>
    </DataBand>
  </ReportPage>
</Report>
`;

export interface SrsFixture {
  db: TestDatabase;
  inst: Instance;
  appsDir: string;
  adminJwt: string;
  doraJwt: string;
  nemoJwt: string;
  /** A request with a JWT (or none). */
  as(jwt: string | null, path: string, init?: RequestInit & { json?: unknown }): ReturnType<Instance['request']>;
  /** The same as raw bytes (PDF). */
  bytes(jwt: string, path: string): Promise<{ status: number; headers: Headers; body: Buffer }>;
}

export function makeSrsAppsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-srs-apps-'));
  cpSync(join(REPO_APPS_DIR, 'demo'), join(dir, 'demo'), { recursive: true });
  writeFileSync(join(dir, 'demo', 'srs', '90-lab.xml'), LAB_SRS);
  writeFileSync(join(dir, 'demo', 'templates', 'lab.frx'), LAB_FRX);
  for (const sub of ['templates', 'srs']) mkdirSync(join(dir, 'other', sub), { recursive: true });
  writeFileSync(
    join(dir, 'other', 'srs', '1-other.xml'),
    '<srs label="Other"><def><itm model="command" name="x">SELECT 1 AS x</itm></def></srs>',
  );
  writeFileSync(join(dir, 'other', 'templates', 'invoice.frx'), LAB_FRX);
  return dir;
}

export async function startSrsFixture(kind: DatabaseKind, env: Record<string, string> = {}): Promise<SrsFixture> {
  const db = await createTestDatabase(kind);
  const appsDir = makeSrsAppsDir();
  // One render worker: the machine's cores are shared with other test files.
  const inst = await startInstance(db, { APPS_DIR: appsDir, Settings__RenderWorkers: '1', ...env });
  const users = inst.services.database.db;
  const dora = await createAccount(users, { username: 'dora', password: 'qben-password-1' }, CLI_ACTOR);
  await grantRole(users, dora.id, 'app_demo');
  await createAccount(users, { username: 'nemo', password: 'arzb-password-1' }, CLI_ACTOR);
  const as: SrsFixture['as'] = (jwt, path, init = {}) =>
    inst.request(path, {
      ...init,
      headers: {
        ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    });
  if (process.env.SRS_DEBUG) {
    const stop = inst.stop.bind(inst);
    inst.stop = async () => {
      console.log(
        inst
          .logs()
          .split('\n')
          .filter((l) => l.includes('"level":50'))
          .join('\n')
          .slice(0, 4000),
      );
      await stop();
    };
  }
  return {
    db,
    inst,
    appsDir,
    adminJwt: await inst.jwtFor(ADMIN.username, ADMIN.password),
    doraJwt: await inst.jwtFor('dora', 'qben-password-1'),
    nemoJwt: await inst.jwtFor('nemo', 'arzb-password-1'),
    as,
    async bytes(jwt, path) {
      const res = await fetch(inst.url + path, { headers: { Authorization: `Bearer ${jwt}` } });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    },
  };
}

/** The visible text of our HTML export: each drawn line (or run of HtmlTags spans) on a line of
 *  its own, tags removed, entities decoded. */
export function htmlText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  return body
    .replace(/<\/div>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .join('\n');
}
