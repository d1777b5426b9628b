// Finds the broken references of a Markdown document: relative links to files that do not exist,
// #anchors that no heading of the target makes (GitHub's slug rules), and backticked repository
// paths (`src/x.ts`, `src/x.ts:12`) that name no file.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Top folders of the repository a backticked path is recognised by. */
const REPOSITORY_FOLDERS = ['src', 'test', 'scripts', 'docs', 'console', 'apps', 'examples', 'bench', 'bin', 'deploy'];
const BACKTICKED_PATH = new RegExp(`^((?:${REPOSITORY_FOLDERS.join('|')})/[\\w./-]*?)(?::\\d+(?:-\\d+)?)?$`);

/** The document without its fenced code blocks (their text is code, not links), lines kept in place. */
export function withoutCodeBlocks(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const m = /^\s*(```+|~~~+)/.exec(line);
      if (fence === null && m) {
        fence = m[1]!;
        return '';
      }
      if (fence !== null) {
        if (line.trim().startsWith(fence)) fence = null;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link reads as its text
    .replace(/`/g, '')
    .replace(/<[^>]+>/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a document offers: its headings' slugs (repeats numbered as GitHub does) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

export interface BrokenReference {
  line: number;
  reference: string;
  problem: string;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * The broken references of `markdown`, a document at `file` in the repository at `root`.
 * `readTarget` gives another Markdown file's text (for its anchors).
 */
export function brokenReferences(
  markdown: string,
  file: string,
  root: string,
  readTarget: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): BrokenReference[] {
  const broken: BrokenReference[] = [];
  const lines = withoutCodeBlocks(markdown).split('\n');
  const ownAnchors = anchorsOf(markdown);
  lines.forEach((text, i) => {
    const line = i + 1;
    const targets = [
      ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (isExternal(target)) continue;
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      if (pathPart !== '' && !existsSync(path)) {
        broken.push({ line, reference: target, problem: `${relative(root, path)} does not exist` });
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (pathPart === '') {
        if (!ownAnchors.has(anchor))
          broken.push({ line, reference: target, problem: `no heading here makes #${anchor}` });
        continue;
      }
      if (statSync(path).isDirectory() || !path.endsWith('.md')) continue;
      const anchors = anchorsOf(readTarget(path));
      if (!anchors.has(anchor)) {
        broken.push({ line, reference: target, problem: `no heading of ${relative(root, path)} makes #${anchor}` });
      }
    }
    for (const m of text.matchAll(/`([^`\n]+)`/g)) {
      const ref = BACKTICKED_PATH.exec(m[1]!);
      if (ref && !existsSync(join(root, ref[1]!))) {
        broken.push({ line, reference: m[1]!, problem: `${ref[1]} does not exist in the repository` });
      }
    }
  });
  return broken;
}
