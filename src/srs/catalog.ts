// What a caller may run (GET /api/srs): the apps they may use, each with the SRS definitions
// whose reports they may render and the app's templates, with every param's name, type and
// default so a client can build a form. Access is decided by the rules the report requests
// obey (app-access.ts for the app, run-commands.ts for a definition's srssetup), not a copy.
// Also the roles the apps' definitions name in their acls: roles that may be granted.
import type { Principal } from '../auth/authenticator.js';
import { listApps } from '../apps/apps-directory.js';
import { join } from 'node:path';
import { usableApps } from './app-access.js';
import type { DefinitionStore } from './definition/store.js';
import { SrsDefinitionError } from './definition/parse.js';
import type { SrsDefinition } from './definition/model.js';
import { mayRun } from './run-commands.js';
import type { TemplateResolver } from './templates.js';
import { fittingTemplates, type TemplateDictionaries } from './template-fit.js';

/** A param as clients see it. */
export const paramView = (p: SrsDefinition['params'][number]) => ({
  name: p.name,
  type: p.type,
  default: p.defaultValue,
  label: p.label,
});

export interface CatalogDefinition {
  id: string;
  label: string;
  file: string;
  params: Array<{ name: string; type: string; default: string | null; label: string | null }>;
  /** The app's templates that fit the definition, best first (template-fit.ts). */
  templates: string[];
}

export interface CatalogApp {
  name: string;
  definitions: CatalogDefinition[];
  templates: string[];
  /** srs_administrator only: the definitions that cannot be loaded, and why. */
  errors?: string[];
}

/** The app's definitions, each loaded (from the store's cache) or the error that stops it. */
async function loadAll(
  store: DefinitionStore,
  appDir: string,
): Promise<Array<{ id: string; result: SrsDefinition | SrsDefinitionError }>> {
  const out: Array<{ id: string; result: SrsDefinition | SrsDefinitionError }> = [];
  for (const id of await store.ids(appDir)) {
    try {
      const definition = await store.load(appDir, id);
      if (definition) out.push({ id, result: definition });
    } catch (err) {
      if (!(err instanceof SrsDefinitionError)) throw err;
      out.push({ id, result: err });
    }
  }
  return out;
}

export async function catalogFor(
  caller: Principal,
  appsDir: string,
  store: DefinitionStore,
  templates: TemplateResolver,
  dictionaries: TemplateDictionaries,
): Promise<CatalogApp[]> {
  const admin = caller.account.roles.has('srs_administrator');
  const apps: CatalogApp[] = [];
  for (const app of usableApps(appsDir, caller)) {
    const definitions: CatalogDefinition[] = [];
    const errors: string[] = [];
    const appTemplates = await templates.list(app.dir);
    const names = await dictionaries.namesOf(app.dir, appTemplates);
    for (const { result } of await loadAll(store, app.dir)) {
      if (result instanceof SrsDefinitionError) {
        errors.push(result.message);
        continue;
      }
      // An srssetup the caller may not run refuses the whole report (403): not theirs to use.
      if (result.setup && !mayRun(result.setup, caller.account.roles)) continue;
      definitions.push({
        id: result.id,
        label: result.label,
        file: result.file,
        params: result.params.map(paramView),
        templates: fittingTemplates(result, appTemplates, (t) => names.get(t) ?? new Set()),
      });
    }
    apps.push({
      name: app.name,
      definitions,
      templates: appTemplates,
      ...(admin ? { errors } : {}),
    });
  }
  return apps;
}

/** Every role the installed apps' definitions name in a command's acl (broken files skipped). */
export async function rolesNamedByApps(appsDir: string, store: DefinitionStore): Promise<string[]> {
  const roles = new Set<string>();
  for (const app of listApps(appsDir))
    for (const { result } of await loadAll(store, join(appsDir, app))) {
      if (result instanceof SrsDefinitionError) continue;
      for (const c of result.setup ? [result.setup, ...result.commands] : result.commands)
        for (const r of c.acl) roles.add(r);
    }
  return [...roles].sort();
}
