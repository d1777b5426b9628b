// The SRS report service: for a caller and an SRS id, the app, the definition, the data its
// commands return, and that data rendered through a template (on the render pool) or turned
// into a starter template. The HTTP routes (routes.ts) only translate to and from requests.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';
import type { DialectName } from '../db/connect.js';
import type { Principal } from '../auth/authenticator.js';
import { AppError, notFound, unprocessable } from '../lib/errors.js';
import { resolveApp, type AppContext } from './app-access.js';
import { DefinitionStore } from './definition/store.js';
import { SrsDefinitionError } from './definition/parse.js';
import type { SrsDefinition } from './definition/model.js';
import { resolveParams, type ParamInput, type ParamValue } from './params.js';
import { mayRun, runCommands, type CommandExecutor, type RunLimits, type RunResult } from './run-commands.js';
import { ConnectionCommandExecutor } from './connection-commands.js';
import { SqliteCommandExecutor } from './sqlite-commands/executor.js';
import { PlatformDirectoryCopy } from './platform-directory.js';
import { TemplateResolver } from './templates.js';
import { renderFailure } from './render-errors.js';
import { requestedMaxPages } from './max-pages-param.js';
import type { RenderFormat, RenderOutcome, RenderPool } from './render-pool/index.js';
import { renderFileName } from './render-formats.js';
import { starterTemplate, TemplateError } from '../report/index.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';
import type { Metrics, SrsLabels } from '../metrics/metrics.js';
import { catalogFor, paramView, rolesNamedByApps, type CatalogApp } from './catalog.js';
import { TemplateDictionaries } from './template-fit.js';

export interface SrsServiceDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  /** PostgreSQL: the app role's connections (app-role.ts), which the service closes; null on SQLite. */
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  appDb: Kysely<any> | null;
  /** SQLite: the apps' own database file, which the command processes open. */
  appDataFile: string | null;
  /** How old the SQLite user directory copy may get (Settings:AuthCacheSeconds). */
  directoryMaxAgeMs: number;
  appsDir: string;
  pool: RenderPool;
  limits: RunLimits;
  logger: Logger;
  /** Times command runs and renders (by app, SRS and template). */
  metrics?: Metrics;
}

export interface SrsRequest {
  caller: Principal;
  id: string;
  /** `?app_name=`; else the caller's context. */
  appName: string | undefined;
  params: ParamInput;
}

export interface DefinitionView {
  id: string;
  app: string;
  file: string;
  label: string;
  culture: string | null;
  params: Array<{ name: string; type: string; default: string | null; label: string | null }>;
  commands: Array<{
    name: string;
    setup: boolean;
    single: boolean;
    required: boolean;
    acl: string[];
    allowed: boolean;
    sql?: string;
  }>;
  templates: string[];
  warnings?: string[];
}

export interface SrsData extends RunResult {
  definition: SrsDefinition;
  app: AppContext;
}

export interface RenderedReport {
  outcome: RenderOutcome;
  fileName: string;
}

export interface StarterFile {
  output: Buffer;
  fileName: string;
}

/** How many SQLite command processes (each with its own connection) run SRS commands at once. */
const SRS_SQLITE_PROCESSES = 2;

export class SrsService {
  readonly definitions: DefinitionStore;
  readonly templates = new TemplateResolver();
  /** The templates' data names, for the catalog's fitting templates of each definition. */
  readonly dictionaries = new TemplateDictionaries();
  /** Runs the commands against the apps' data: on PostgreSQL through the app role's pool,
   *  whose type parsers give SRS data the same JSON shape as on SQLite (pg-types.ts); on SQLite
   *  in command processes with connections of their own to the apps' file (sqlite-commands/),
   *  off the event loop. */
  readonly commands: CommandExecutor;
  /** SQLite only: the apps' copy of the user directory (PostgreSQL has a view). */
  readonly directory: PlatformDirectoryCopy | null;

  constructor(private readonly deps: SrsServiceDeps) {
    this.definitions = new DefinitionStore({
      onLoad: (file, result) => {
        if (result instanceof SrsDefinitionError)
          deps.logger.error({ file, err: result.message }, 'SRS definition is invalid');
        else if (result.warnings.length > 0)
          deps.logger.warn({ file, warnings: result.warnings }, 'SRS definition loaded with warnings');
      },
    });
    if (deps.dialect === 'postgresql') {
      if (!deps.appDb) throw new Error('SRS on PostgreSQL needs the app role’s connections');
      this.commands = new ConnectionCommandExecutor({
        appDb: deps.appDb,
        platformDb: deps.db,
        ownsAppDb: true,
        logger: deps.logger,
      });
      this.directory = null;
    } else {
      if (!deps.appDataFile) throw new Error('SRS on SQLite needs the apps’ database file');
      this.directory = new PlatformDirectoryCopy(deps.db, deps.appDataFile, deps.directoryMaxAgeMs);
      this.commands = new SqliteCommandExecutor(deps.db, { file: deps.appDataFile, processes: SRS_SQLITE_PROCESSES });
    }
  }

  /** The render pool (a property so tests can observe what is rendered). */
  get pool(): RenderPool {
    return this.deps.pool;
  }

  async close(): Promise<void> {
    this.directory?.close();
    await this.commands.close();
  }

  private async load(
    caller: Principal,
    id: string,
    appName: string | undefined,
  ): Promise<{ app: AppContext; definition: SrsDefinition }> {
    const app = await resolveApp(this.deps.db, this.deps.appsDir, caller, appName);
    let definition: SrsDefinition | null;
    try {
      definition = await this.definitions.load(app.dir, id);
    } catch (err) {
      if (err instanceof SrsDefinitionError)
        throw unprocessable('srs_invalid', `The definition of SRS ${id} is invalid: ${err.message}`);
      throw err;
    }
    if (!definition) throw notFound('srs_not_found', `No SRS ${id} in the application ${app.name}`);
    return { app, definition };
  }

  /** The apps, definitions and templates the caller may use (catalog.ts). */
  async catalog(caller: Principal): Promise<CatalogApp[]> {
    return catalogFor(caller, this.deps.appsDir, this.definitions, this.templates, this.dictionaries);
  }

  /** The roles the installed apps' definitions name in their acls (roles that may be granted). */
  async aclRoles(): Promise<string[]> {
    return rolesNamedByApps(this.deps.appsDir, this.definitions);
  }

  async describe(caller: Principal, id: string, appName: string | undefined): Promise<DefinitionView> {
    const { app, definition } = await this.load(caller, id, appName);
    const admin = caller.account.roles.has('srs_administrator');
    const commands = (definition.setup ? [definition.setup, ...definition.commands] : definition.commands).map((c) => ({
      name: c.name,
      setup: c === definition.setup,
      single: c.single,
      required: c.required,
      acl: c.acl,
      allowed: mayRun(c, caller.account.roles),
      ...(admin ? { sql: c.sql } : {}),
    }));
    return {
      id: definition.id,
      app: app.name,
      file: definition.file,
      label: definition.label,
      culture: definition.culture ?? null,
      params: definition.params.map(paramView),
      commands,
      templates: await this.templates.list(app.dir),
      ...(admin ? { warnings: definition.warnings } : {}),
    };
  }

  /** Brings the SQLite user directory copy up to date; a failure leaves it stale, never fails the report. */
  private async refreshDirectory(): Promise<void> {
    try {
      await this.directory?.refreshIfStale();
    } catch (err) {
      this.deps.logger.error({ err }, 'cannot copy the user directory into the apps’ database');
    }
  }

  /** Runs the SRS's commands: the JSON object a template receives. */
  async data(req: SrsRequest, opts: { signal?: AbortSignal } = {}): Promise<SrsData> {
    const { app, definition } = await this.load(req.caller, req.id, req.appName);
    return this.run(req, app, definition, { app: app.name, srs: definition.id, template: '' }, opts.signal);
  }

  /** `signal`: the client went away; commands still waiting or running on SQLite are stopped. */
  private async run(
    req: SrsRequest,
    app: AppContext,
    definition: SrsDefinition,
    labels: SrsLabels,
    signal?: AbortSignal,
  ): Promise<SrsData> {
    const values: Record<string, ParamValue> = {
      ...resolveParams(definition.params, req.params),
      _username: req.caller.account.username,
      _user_id: req.caller.account.id,
      _app_name: app.name,
    };
    await this.refreshDirectory();
    let result: RunResult;
    const started = performance.now();
    try {
      result = await runCommands(
        this.commands,
        this.deps.dialect,
        { definition, values, roles: req.caller.account.roles },
        this.deps.limits,
        signal,
      );
    } catch (err) {
      this.deps.metrics?.srsCommands(labels, false, (performance.now() - started) / 1000);
      if (signal?.aborted) throw clientClosed();
      throw err;
    }
    this.deps.metrics?.srsCommands(labels, true, (performance.now() - started) / 1000);
    return { ...result, definition, app };
  }

  /** Runs the commands and renders the template `templateName` (without `.frx`) with their data.
   *  Past the pool's page limit the render fails (422 render_too_large) unless the request asks
   *  for the first pages with `_max_pages` (outcome.truncated says whether they were cut). */
  async render(
    req: SrsRequest,
    templateName: string,
    format: RenderFormat,
    opts: { by: AuditActor; signal?: AbortSignal; fontBaseUrl?: string },
  ): Promise<RenderedReport> {
    const truncateAtPages = requestedMaxPages(req.params, this.deps.pool.maxPages);
    const { app, definition } = await this.load(req.caller, req.id, req.appName);
    // The template is found before any SQL runs: a wrong name costs no database work.
    const templatePath = await this.templates.resolve(app.dir, templateName);
    const labels: SrsLabels = { app: app.name, srs: definition.id, template: templateName };
    const { data } = await this.run(req, app, definition, labels, opts.signal);
    let outcome: RenderOutcome;
    const started = performance.now();
    try {
      outcome = await this.deps.pool.render(
        {
          templatePath,
          // Its shapefiles, CSV files and base reports may be anywhere in the app's folder.
          resourceFolder: app.dir,
          format,
          data,
          ...(definition.culture ? { culture: definition.culture } : {}),
          nowMs: wallClockNow(),
          ...(truncateAtPages !== undefined ? { truncateAtPages } : {}),
          ...(opts.by.requestId ? { requestId: opts.by.requestId } : {}),
          ...(format === 'html' && opts.fontBaseUrl !== undefined ? { fontBaseUrl: opts.fontBaseUrl } : {}),
        },
        opts.signal,
      );
    } catch (err) {
      this.deps.metrics?.render(labels, format, false, (performance.now() - started) / 1000);
      // The client went away and nothing can be sent: not a server fault worth an error log.
      if (opts.signal?.aborted) throw clientClosed();
      throw renderFailure(err);
    }
    this.deps.metrics?.render(labels, format, true, (performance.now() - started) / 1000);
    // Rendering writes nothing, so the entry is its own statement, once the report exists.
    await recordAudit(this.deps.db, {
      action: 'srs_render',
      by: opts.by,
      data: {
        app: app.name,
        definition: req.id,
        template: templateName,
        format,
        pages: outcome.pages,
        ...(outcome.truncated ? { truncated: true } : {}),
      },
    });
    return { outcome, fileName: renderFileName(templateName, format) };
  }
}

/**
 * `_new.frx`: a starter template wired to the SRS's data (a DataBand per command, single objects
 * as label/value blocks), built from one run of its commands with the caller's params, so an
 * administrator can pick params that return representative rows. Cheap, so it is built here
 * rather than on the render pool.
 */
export async function buildStarter(
  srs: SrsService,
  req: SrsRequest,
  opts: { signal?: AbortSignal } = {},
): Promise<StarterFile> {
  const { data, definition } = await srs.data(req, opts);
  let frx: string;
  try {
    frx = starterTemplate(data, { title: definition.label });
  } catch (err) {
    if (err instanceof TemplateError)
      throw unprocessable('template_error', `No starter template can be made from this data: ${err.message}`);
    throw err;
  }
  // Named after the definition file, ready to be saved into templates/.
  const stem = definition.file.replace(/^srs\//, '').replace(/\.xml$/, '');
  return { output: Buffer.from(frx, 'utf8'), fileName: `${stem}.frx` };
}

/** The client went away and nothing can be sent: not a server fault worth an error log. */
function clientClosed(): AppError {
  return new AppError(
    'client_gone',
    'client_closed_request',
    'The client closed the connection before the report was ready',
  );
}

/** The server's local wall-clock time as the engine reads "now" (UTC fields = local time). */
function wallClockNow(): number {
  const now = new Date();
  return now.getTime() - now.getTimezoneOffset() * 60_000;
}
