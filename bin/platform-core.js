#!/usr/bin/env node
// Runs the compiled CLI (built into dist/ by `npm ci` via the prepare script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('platform-core: dist/ is missing; run `npm run build` (npm ci does it automatically)\n');
  process.exit(1);
}
// First thing, before the rest of the program loads: see src/lib/tick-object-shape.ts.
const { holdTickObjectShape } = await import(new URL('../dist/lib/tick-object-shape.js', import.meta.url).href);
holdTickObjectShape();
const { run } = await import(entry.href);
run();
