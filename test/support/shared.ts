// Where the project's shared material (spec, FastReport fixtures) is: `SHARED_DIR` when set
// (CI sets it, as its Node 24 pass runs in a copy of the checkout elsewhere), else the
// `shared/` folder beside the repository.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const SHARED_DIR = process.env.SHARED_DIR ? resolve(process.env.SHARED_DIR) : resolve(REPO_ROOT, '..', 'shared');

if (!existsSync(resolve(SHARED_DIR, 'fixtures', 'fastreport'))) {
  throw new Error(
    `the FastReport fixtures are not at ${SHARED_DIR}/fixtures/fastreport: put the project's shared/ folder ` +
      `beside the repository, or set SHARED_DIR`,
  );
}

/** The FastReport fixtures folder, with a trailing slash. */
export const FASTREPORT_FIXTURES_DIR = `${resolve(SHARED_DIR, 'fixtures', 'fastreport')}/`;
export const FASTREPORT_FIXTURES_URL = pathToFileURL(FASTREPORT_FIXTURES_DIR);
