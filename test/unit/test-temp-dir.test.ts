// The test run's temp directory (test/support/temp-dir-setup.ts): what the tests and the processes
// they start put in os.tmpdir() lands in one directory of the run, which its teardown removes.
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the test run temp directory', () => {
  it('is the temp dir of the test files and of the processes they start', () => {
    expect(basename(tmpdir())).toMatch(/^platform-core-test-/);
    const child = execFileSync(process.execPath, ['-p', "require('node:os').tmpdir()"], { encoding: 'utf8' });
    expect(child.trim()).toBe(tmpdir());
  });
});
