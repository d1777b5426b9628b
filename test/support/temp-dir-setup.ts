// Vitest globalSetup: the test run's temporary files go into one directory of their own, removed
// at the end of the run. Test files make temp directories (apps dirs, data dirs, PDFs to inspect)
// with os.tmpdir(), and not every one removes its own; without this a developer's /tmp gained
// dozens of directories on every `npm test`.
//
// os.tmpdir() reads TMPDIR, and the forked test workers (and the processes they spawn) inherit this
// process's environment, so setting it here covers them all. It is listed after the PostgreSQL
// setup, whose cluster lives in the ordinary temp dir and is removed by that setup's own teardown.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'platform-core-test-'));
  // Open as the system temp dir it stands in for (sticky, anyone may create): tests that run the
  // server as another user (nobody) need to reach their directories inside it.
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  // Synchronous, so it can also run from an 'exit' listener when vitest ends without its teardown.
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  return () => {
    process.removeListener('exit', remove);
    // In watch mode a later run makes its own directory from the user's temp dir, not from ours.
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    remove();
  };
}
