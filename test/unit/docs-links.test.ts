// Every link of the user-facing Markdown leads somewhere: files and folders exist, anchors name a
// heading of their target, and backticked repository paths name real files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenReferences, githubSlug } from '../support/markdown-links.js';

const ROOT = join(import.meta.dirname, '..', '..');

function readmesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === 'README.md') found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

const documents = [
  ...['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md'].map((f) => join(ROOT, f)),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
  ...readmesUnder('src'),
  ...readmesUnder('scripts'),
].filter((file) => existsSync(file));

describe('links of the documentation', () => {
  it('covers the README, the docs folder and the READMEs of the code', () => {
    const names = documents.map((f) => relative(ROOT, f));
    expect(names).toContain('README.md');
    expect(names).toContain('docs/api.md');
    expect(names).toContain('src/report/README.md');
  });

  it.each(documents.map((f) => [relative(ROOT, f), f] as const))('%s has no broken link', (_, file) => {
    expect(brokenReferences(readFileSync(file, 'utf8'), file, ROOT)).toEqual([]);
  });
});

describe('the link checker', () => {
  const file = join(ROOT, 'docs', 'example.md');
  const check = (markdown: string) =>
    brokenReferences(markdown, file, ROOT, () => '# Start here\n## `Settings` & more\n');

  it('makes GitHub’s anchors', () => {
    expect(githubSlug('Tokens that expire (and `roles`)')).toBe('tokens-that-expire-and-roles');
    expect(githubSlug('Accounts, teams & roles')).toBe('accounts-teams--roles');
    expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n<a id="x"></a>')]).toEqual(['a', 'a-1', 'x']);
  });

  it('finds a link to a file that does not exist', () => {
    expect(check('See [the guide](missing-guide.md).')).toEqual([
      { line: 1, reference: 'missing-guide.md', problem: 'docs/missing-guide.md does not exist' },
    ]);
  });

  it('finds an anchor no heading makes, in the target and in the document itself', () => {
    const broken = check('[a](security.md#no-such-heading)\n[b](#nowhere)\n# Here');
    expect(broken.map((b) => b.reference)).toEqual(['security.md#no-such-heading', '#nowhere']);
    expect(check('[a](security.md)\n[b](#here)\n# Here')).toEqual([]);
  });

  it('finds a backticked repository path that does not exist, with or without a line number', () => {
    expect(
      check('`src/nowhere/file.ts:12` and `src/server.ts:3` and `scripts/nope.ts`').map((b) => b.reference),
    ).toEqual(['src/nowhere/file.ts:12', 'scripts/nope.ts']);
  });

  it('ignores external links and code blocks', () => {
    expect(check('[x](https://example.com/missing.md)\n```\n[y](missing.md) `src/nope.ts`\n```')).toEqual([]);
  });
});
