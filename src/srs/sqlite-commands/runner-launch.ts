// How to start an SQLite command process. The server runs the compiled
// dist/srs/sqlite-commands/runner-process.js next to this file. When this module itself runs
// from the TypeScript sources (vitest, tsx), its sibling is runner-process.ts, started with
// tsx's loader (a dev dependency) so tests exercise the current sources, never a stale dist/.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface RunnerLaunch {
  /** Arguments for `node` before the database file: loader flags and the entry script. */
  args: string[];
}

const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

export class RunnerLaunchError extends Error {}

/** tsx's ESM loader as a file URL (for `--import`), or undefined when tsx is not installed. */
function tsxLoader(): string | undefined {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    return undefined;
  }
}

export function runnerLaunch(): RunnerLaunch {
  const entry = fileURLToPath(
    new URL(RUNNING_FROM_SOURCES ? './runner-process.ts' : './runner-process.js', import.meta.url),
  );
  if (!existsSync(entry))
    throw new RunnerLaunchError(
      `the SQLite command process script ${entry} does not ` +
        `exist${RUNNING_FROM_SOURCES ? '' : ' (is dist/ built completely?)'}`,
    );
  if (!RUNNING_FROM_SOURCES) return { args: [entry] };
  const loader = tsxLoader();
  if (!loader)
    throw new RunnerLaunchError(
      `the SQLite command process ${entry} is TypeScript and tsx is not installed: run the server from dist/ ` +
        `(npm run build)`,
    );
  return { args: ['--import', loader, entry] };
}
