#!/usr/bin/env node
// Lists every line over 120 characters in the code of the repository and exits 1 if there is one.
// The Biome formatter keeps code within 120 columns but cannot wrap a long string, regular expression
// or comment; this check covers those (run by `npm run lint`). Data is exempt: fixtures, expected
// outputs and any file that is not code (.json, .xml, .frx, .csv, .md …).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';

const MAX_COLUMNS = 120;
const CODE_FOLDERS = ['src', 'test', 'bench', 'bin', '.ci', 'scripts', 'examples'];
const CODE_EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs', '.sh']);
const DATA_FOLDERS = ['test/fixtures/'];

/** Tracked files and new ones not ignored, so that a file not yet added is checked too. */
function candidateFiles() {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', ...CODE_FOLDERS], {
    encoding: 'utf8',
  });
  return [...new Set(out.split('\0').filter(Boolean))];
}

function isCode(file) {
  if (DATA_FOLDERS.some((folder) => file.startsWith(folder))) return false;
  const ext = extname(file);
  // Extension-less files in .ci/ and bin/ are scripts (.ci/run).
  return CODE_EXTENSIONS.has(ext) || (ext === '' && (file.startsWith('.ci/') || file.startsWith('bin/')));
}

const offending = [];
for (const file of candidateFiles().filter(isCode)) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted but not yet committed
  }
  text.split('\n').forEach((line, i) => {
    const columns = [...line].length; // characters, not UTF-16 units or bytes
    if (columns > MAX_COLUMNS) offending.push(`${file}:${i + 1}: ${columns} characters`);
  });
}

if (offending.length > 0) {
  console.error(`${offending.length} line(s) over ${MAX_COLUMNS} characters (wrap the string or comment):`);
  for (const line of offending) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`line length: no line over ${MAX_COLUMNS} characters`);
