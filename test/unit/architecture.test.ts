// The layout rules of src/, read from the imports themselves: every
// import points down the layer order below, nothing reaches into the report library past its
// index.ts, no module cycle at all, and better-sqlite3 is loaded only where
// the build that fits this Node is chosen. Violations still being fixed would be listed in
// KNOWN_VIOLATIONS; an entry that no longer occurs fails the test, so that list only shrinks.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The layer order of src/, top to bottom. A file may import a file of its own folder, or of a
 * folder on a LOWER row; folders on one row are peers and import neither each other nor anything
 * above them. (A folder is the first path segment under src/; the two top-level files are their
 * own "folders".)
 *
 * | row | folders            | what lives there                                                     |
 * |-----|--------------------|----------------------------------------------------------------------|
 * | 0   | cli                | the command line (serve, admin commands, render)                     |
 * | 1   | server.ts          | listen and shut down                                                 |
 * | 2   | api                | the routes: one Fastify plugin per route group, with its schemas      |
 * | 3   | services.ts        | the composition root: one instance's services, wired                 |
 * | 4   | http               | the Fastify assembly and request plumbing (envelope, errors, auth)   |
 * | 5   | accounts, tokens,  | the domains: account administration and profiles, API tokens,        |
 * |     | srs, system        | report rendering, system utilities                                   |
 * | 6   | teams              | teams and memberships (every account is in one; accounts use them)   |
 * | 7   | auth               | who is calling: sessions, API tokens, login, passwords, lockout      |
 * | 8   | identity           | the stored users and API tokens, username rules: what auth and the   |
 * |     |                    | domains that manage them read                                        |
 * | 9   | apps, audit        | the applications directory; the audit trail (written in the          |
 * |     |                    | transaction of each action, read by the API and the CLI)             |
 * | 10  | report             | the report library: imports nothing of the service                   |
 * | 11  | metrics            | the Prometheus registry every layer records into                     |
 * | 12  | db, config, lib    | storage, configuration, small helpers                                |
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli'],
  ['server.ts'],
  ['api'],
  ['services.ts'],
  ['http'],
  ['accounts', 'tokens', 'srs', 'system'],
  ['teams'],
  ['auth'],
  ['identity'],
  ['apps', 'audit'],
  ['report'],
  ['metrics'],
  ['db', 'config', 'lib'],
];

/** The only file of src/report that the rest of src/ may import. */
const REPORT_DOOR = 'src/report/index.ts';
/** better-sqlite3 12 crashes on Node 24.19+: db/sqlite-file.ts loadSqlite picks the build. */
const SQLITE_PACKAGES = ['better-sqlite3', 'better-sqlite3-napi'];
const SQLITE_LOADER = 'src/db/sqlite-file.ts';

/**
 * Violations other branches of #15 are removing: layer and door rules as "from -> to" (files),
 * cycles as "cycle under <folder>/" (every file of the cycle below that folder).
 */
const KNOWN_VIOLATIONS: readonly string[] = [];

interface Import {
  from: string;
  /** A file under src/ (relative specifier) or a package name. */
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

// Static imports and re-exports (one statement may span lines), dynamic import() and require()
// with a literal. `import type` is recorded too: a type import is still an arrow between modules.
const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;
const CALLED = /\b(import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const to = specifier.startsWith('.')
      ? normalize(join(dirname(file), specifier))
          .replace(/\\/g, '/')
          .replace(/\.js$/, '.ts')
      : specifier;
    found.push({ from: file, to, typeOnly });
  };
  for (const m of text.matchAll(STATIC)) add(m[3]!, m[2] !== undefined);
  for (const m of text.matchAll(CALLED)) add(m[2]!, false);
  return found;
}

const folderOf = (file: string): string => relative('src', file).split('/')[0]!;

const rowOf = (folder: string): number => LAYERS.findIndex((row) => row.includes(folder));

const srcFiles = sourceFiles('src');
const srcImports = srcFiles.flatMap(importsOf);
const internal = srcImports.filter((i) => i.to.startsWith('src/'));

function layerViolations(): string[] {
  const out: string[] = [];
  for (const { from, to } of internal) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a === b) continue;
    if (rowOf(b) <= rowOf(a)) out.push(`${from} -> ${to}`);
  }
  return out;
}

function reportDoorViolations(): string[] {
  return internal
    .filter(({ from, to }) => to.startsWith('src/report/') && !from.startsWith('src/report/') && to !== REPORT_DOOR)
    .map(({ from, to }) => `${from} -> ${to}`);
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
function cycles(): string[][] {
  const edges = new Map<string, string[]>(srcFiles.map((f) => [f, []]));
  for (const { from, to } of internal) if (edges.has(to)) edges.get(from)!.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const f of srcFiles) if (!index.has(f)) visit(f);
  return out;
}

/** The deepest folder that holds every file of a cycle, as "cycle under <folder>/". */
function cycleName(files: string[]): string {
  let prefix = dirname(files[0]!);
  while (!files.every((f) => f.startsWith(`${prefix}/`))) prefix = dirname(prefix);
  return `cycle under ${prefix}/`;
}

function cycleViolations(): string[] {
  return cycles().map(cycleName);
}

function sqliteViolations(): string[] {
  const everywhere = [
    ...srcImports,
    ...sourceFiles('test').flatMap(importsOf),
    ...sourceFiles('bench').flatMap(importsOf),
  ];
  return everywhere
    .filter((i) => SQLITE_PACKAGES.includes(i.to) && !i.typeOnly && i.from !== SQLITE_LOADER)
    .map((i) => `${i.from} -> ${i.to}`);
}

const notKnown = (found: string[]): string[] => [...new Set(found)].filter((v) => !KNOWN_VIOLATIONS.includes(v)).sort();

describe('the layout of src/', () => {
  it('parses the imports it checks', () => {
    // Guards the reader itself: if the patterns stopped matching, every rule would pass vacuously.
    expect(srcFiles.length).toBeGreaterThan(100);
    expect(internal.length).toBeGreaterThan(srcFiles.length);
    expect(internal.some((i) => i.typeOnly)).toBe(true);
    expect(srcImports.some((i) => i.from === SQLITE_LOADER && i.to === 'better-sqlite3' && i.typeOnly)).toBe(true);
    for (const f of srcFiles) expect(rowOf(folderOf(f)), `${f} has no row in LAYERS`).toBeGreaterThanOrEqual(0);
  });

  it('every import points down the layer order', () => {
    expect(notKnown(layerViolations()), 'imports of a folder on the same or a higher row').toEqual([]);
  });

  it('the rest of src/ enters the report library only through its index.ts', () => {
    expect(notKnown(reportDoorViolations()), `imports into src/report/ other than ${REPORT_DOOR}`).toEqual([]);
  });

  it('no import cycle anywhere in src/ (the engine had one until #15)', () => {
    expect(notKnown(cycleViolations()), 'module cycles').toEqual([]);
  });

  it('every entry of KNOWN_VIOLATIONS still occurs (the list only shrinks)', () => {
    const found = new Set([...layerViolations(), ...reportDoorViolations(), ...cycleViolations()]);
    expect(
      KNOWN_VIOLATIONS.filter((v) => !found.has(v)),
      'no longer occur: remove them from KNOWN_VIOLATIONS',
    ).toEqual([]);
  });

  it(`better-sqlite3 is loaded only by ${SQLITE_LOADER}`, () => {
    const found = sqliteViolations();
    expect(found, 'runtime imports of better-sqlite3 (open SQLite through loadSqlite)').toEqual([]);
  });
});
