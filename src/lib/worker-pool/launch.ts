// Where a worker's code is, and how to start it from the TypeScript sources. The server runs
// the compiled entry (dist/…/x.js) next to the compiled module that starts it. When that module
// itself runs from the sources (vitest, tsx), its sibling is x.ts, started through tsx (a dev
// dependency) so that tests exercise the current sources, never whatever dist/ was last built from:
// a thread through a small bootstrap with tsx's scoped tsImport, a process with tsx's loader.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** No worker can be started: its script is missing, or it is TypeScript and tsx is not installed. */
export class WorkerLaunchError extends Error {}

/** The entry `name` beside the module at `moduleUrl`: `name.ts` when that module runs from the
 *  TypeScript sources, `name.js` when it runs compiled. */
export function entryBeside(moduleUrl: string, name: string): URL {
  return new URL(`./${name}${moduleUrl.endsWith('.ts') ? '.ts' : '.js'}`, moduleUrl);
}

function toUrl(script: string | URL): URL {
  return script instanceof URL ? script : script.startsWith('file:') ? new URL(script) : pathToFileURL(script);
}

const isTypeScript = (entry: URL) => /\.[mc]?ts$/.test(entry.pathname);

/** `script` as a URL; a WorkerLaunchError when it is a file that does not exist. */
function existingEntry(script: string | URL, what: string): URL {
  const entry = toUrl(script);
  if (entry.protocol === 'file:' && !existsSync(fileURLToPath(entry))) {
    const hint = isTypeScript(entry) ? '' : ' (is dist/ built completely?)';
    throw new WorkerLaunchError(`the ${what} script ${fileURLToPath(entry)} does not exist${hint}`);
  }
  return entry;
}

function tsxMissing(entry: URL, what: string): WorkerLaunchError {
  return new WorkerLaunchError(
    `the ${what} ${entry.pathname} is TypeScript and tsx is not installed: run the server from dist/ (npm run build)`,
  );
}

export interface ThreadLaunch {
  /** What to pass to `new Worker()`. */
  filename: URL;
  /** workerData for the bootstrap (undefined when the script runs directly). */
  workerData?: { tsxApi: string; entry: string };
}

/** Loads a TypeScript worker entry through tsx's scoped import (no global loader hooks). */
const TSX_BOOTSTRAP = `
import { workerData } from 'node:worker_threads';
const api = await import(workerData.tsxApi);
await (api.tsImport ?? api.default.tsImport)(workerData.entry, workerData.entry);
`;

/** tsx's ESM API module as a file URL, read from its package exports (require.resolve would
 *  pick the CommonJS build, whose loader registration fails from a worker's ESM bootstrap). */
function tsxEsmApi(): string | undefined {
  try {
    const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as {
      exports?: Record<string, { import?: { default?: string } }>;
    };
    const rel = pkg.exports?.['./esm/api']?.import?.default;
    return rel ? new URL(rel, pathToFileURL(pkgPath)).href : undefined;
  } catch {
    return undefined;
  }
}

/** How to start a worker thread on `script` (a path or URL); `.ts` entries run through tsx. */
export function threadLaunch(script: string | URL, what: string): ThreadLaunch {
  const entry = existingEntry(script, what);
  if (!isTypeScript(entry)) return { filename: entry };
  const tsxApi = tsxEsmApi();
  if (!tsxApi) throw tsxMissing(entry, what);
  return {
    filename: new URL(`data:text/javascript,${encodeURIComponent(TSX_BOOTSTRAP)}`),
    workerData: { tsxApi, entry: entry.href },
  };
}

export interface ProcessLaunch {
  /** Arguments for `node` before the process's own: loader flags and the entry script. */
  args: string[];
}

/** How to start a child process on `script` (a path or file URL); `.ts` entries get tsx's loader. */
export function processLaunch(script: string | URL, what: string): ProcessLaunch {
  const entry = existingEntry(script, what);
  const path = fileURLToPath(entry);
  if (!isTypeScript(entry)) return { args: [path] };
  let loader: string;
  try {
    loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    throw tsxMissing(entry, what);
  }
  return { args: ['--import', loader, path] };
}
