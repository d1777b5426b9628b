// Where the render worker's code is, and how to start it. The server runs the compiled
// dist/srs/render-pool/render-worker.js next to the compiled pool. When the pool itself runs
// from the TypeScript sources (vitest, tsx), its sibling is render-worker.ts: the worker then
// starts with a small bootstrap that loads it through tsx (a dev dependency), so tests exercise
// the current sources rather than whatever dist/ was last built from.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RenderFailedError } from './errors.js';

export interface WorkerLaunch {
  /** What to pass to `new Worker()`. */
  filename: URL;
  /** workerData for the bootstrap (undefined when the script runs directly). */
  workerData?: { tsxApi: string; entry: string };
}

const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

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

function toUrl(script: string | URL): URL {
  return script instanceof URL ? script : script.startsWith('file:') ? new URL(script) : pathToFileURL(script);
}

/** The default worker entry, or `script` (tests); `.ts` entries run through tsx. */
export function workerLaunch(script?: string | URL): WorkerLaunch {
  const entry =
    script !== undefined
      ? toUrl(script)
      : new URL(RUNNING_FROM_SOURCES ? './render-worker.ts' : './render-worker.js', import.meta.url);
  if (entry.protocol === 'file:' && !existsSync(fileURLToPath(entry))) {
    throw new RenderFailedError(
      `the render worker script ${fileURLToPath(entry)} does not ` +
        `exist${RUNNING_FROM_SOURCES ? '' : ' (is dist/ built completely?)'}`,
    );
  }
  if (!/\.[mc]?ts$/.test(entry.pathname)) return { filename: entry };
  const tsxApi = tsxEsmApi();
  if (!tsxApi)
    throw new RenderFailedError(
      `the render worker ${entry.pathname} is TypeScript and tsx is not installed: run the server from dist/ ` +
        `(npm run build)`,
    );
  return {
    filename: new URL(`data:text/javascript,${encodeURIComponent(TSX_BOOTSTRAP)}`),
    workerData: { tsxApi, entry: entry.href },
  };
}
