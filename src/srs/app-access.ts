// Which app a report request runs in, and whether the caller may use it: `?app_name=` when given,
// else the caller's context (user_app_name). The caller needs `app_<name>` or
// `app_administrator`, checked on every request (roles change; the context was only checked
// when it was set). The role check comes before the existence check, so callers learn nothing
// about apps they may not use.
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { APP_NAME_PATTERN, appsForRoles, listApps } from '../apps/apps-directory.js';
import { invalid, forbidden } from '../lib/errors.js';
import type { Principal } from '../auth/authenticator.js';

const appNameRe = new RegExp(APP_NAME_PATTERN);

export interface AppContext {
  name: string;
  dir: string;
}

/** The one rule of app access: `app_<name>` or `app_administrator`. */
const mayUseApp = (caller: Principal, name: string): boolean => appsForRoles([name], caller.account.roles).length > 0;

/** The installed apps the caller may use (GET /api/srs), by the rule every report request obeys. */
export function usableApps(appsDir: string, caller: Principal): AppContext[] {
  return listApps(appsDir)
    .filter((name) => mayUseApp(caller, name))
    .map((name) => ({ name, dir: join(appsDir, name) }));
}

export async function resolveApp(
  db: Kysely<Database>,
  appsDir: string,
  caller: Principal,
  requested: string | undefined,
): Promise<AppContext> {
  let name = requested;
  if (name === undefined || name === '') {
    const row = await db.selectFrom('users').select('app_name').where('id', '=', caller.account.id).executeTakeFirst();
    name = row?.app_name ?? '';
    if (name === '') {
      throw invalid(
        'app_required',
        "No application: pass ?app_name= or set the caller's context (POST /api/core/account/context/{app_name})",
        [
          {
            field: 'app_name',
            rule: 'required',
            message: 'app_name is required when the caller has no application context',
          },
        ],
      );
    }
  }
  if (!appNameRe.test(name))
    throw invalid('invalid_input', 'app_name is not an application name', [
      { field: 'app_name', rule: 'pattern', message: `app_name must match ${APP_NAME_PATTERN}` },
    ]);
  if (!mayUseApp(caller, name))
    throw forbidden(
      'app_not_allowed',
      `${caller.account.username} may not use the application ${name} (needs app_${name} or app_administrator)`,
    );
  if (!listApps(appsDir).includes(name))
    throw invalid('unknown_app', `No application named ${name}`, [
      { field: 'app_name', rule: 'exists', message: `no application named ${name}` },
    ]);
  return { name, dir: join(appsDir, name) };
}
