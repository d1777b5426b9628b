#!/usr/bin/env node
// Builds the admin console (console/src) into dist/console: one JavaScript and one CSS bundle
// named by their content hash (so they are cached for a year and never stale), their gzip and
// brotli forms (served by Accept-Encoding), an index.html that links them, and a manifest the
// server reads. Part of `npm run build`, so `npm ci` (prepare) builds it; nothing is committed.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'console');
const assets = join(out, 'assets');
rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ['console/src/main.tsx'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  outdir: assets,
  entryNames: '[name].[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

const files = Object.keys(result.metafile.outputs).map((f) => basename(f));
const script = files.find((f) => f.endsWith('.js'));
const style = files.find((f) => f.endsWith('.css'));
if (!script || !style) throw new Error(`console build: expected one .js and one .css, got ${files.join(', ')}`);

// Relative URLs: the page is /admin/ (routes live in the fragment), so this also works behind a
// proxy that serves the instance under a path prefix.
const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Platform Core · Admin</title>
<link rel="icon" href="../favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="assets/${style}">
<script type="module" src="assets/${script}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading the console…</p></div>
<noscript><p>The admin console needs JavaScript.
The API itself is documented at <a href="../docs">/docs</a>.</p></noscript>
</body>
</html>
`;
writeFileSync(join(out, 'index.html'), html);

const manifest = { files: {} };
for (const name of [...files, '../index.html']) {
  const path = join(assets, name);
  const bytes = readFileSync(path);
  const gz = gzipSync(bytes, { level: 9 });
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${path}.gz`, gz);
  writeFileSync(`${path}.br`, br);
  manifest.files[basename(name)] = { bytes: bytes.length, gzip: gz.length, brotli: br.length };
}
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const total = Object.values(manifest.files).reduce((n, f) => n + f.brotli, 0);
console.log(`console: ${files.join(', ')} (${(total / 1024).toFixed(1)} KB with brotli)`);
