// `platform-core starter --data <sample.json> [--out <file.frx>|-] [--title <text>]`: a starter
// template for an SRS data sample (command name → rows, or a saved answer of
// GET /api/srs/{id}/data.json, whose data it takes), written to --out (default: stdout).
// Loaded only by that command.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseJsonText, starterTemplate, TemplateError } from '../report/index.js';
import { EnvelopeDataError, reportDataOf } from '../lib/api-envelope.js';
import { one, UsageError, type ParsedArgs } from './args.js';

const USAGE =
  'starter needs a data sample: platform-core starter --data <file.json> [--out <file.frx>|-] [--title <text>]';

export async function starterCommand(args: ParsedArgs, err: (s: string) => void): Promise<number> {
  const extra = args.positional[1];
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  const dataPath = one(args, 'data');
  if (dataPath === undefined) throw new UsageError(USAGE);
  const out = one(args, 'out') ?? '-';
  // The report title defaults to the sample's file name ("orders.json" → "orders").
  const title = one(args, 'title') ?? (basename(dataPath, extname(dataPath)) || 'Report');

  let text: string;
  try {
    text = readFileSync(dataPath, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read data file ${dataPath}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  let frx: string;
  try {
    // JSON text: parsed with the data layer's size and depth checks. A saved answer of
    // GET /api/srs/{id}/data.json gives its data; a failure answer is refused.
    const sample = reportDataOf(parseJsonText(text, {}, dataPath));
    frx = starterTemplate(sample.unwrapped ? sample.data : text, { title });
  } catch (e) {
    if (e instanceof TemplateError || e instanceof EnvelopeDataError) throw new UsageError(`${dataPath}: ${e.message}`);
    throw e;
  }
  if (out === '-')
    await new Promise<void>((resolve, reject) => process.stdout.write(frx, (e) => (e ? reject(e) : resolve())));
  else {
    try {
      writeFileSync(out, frx);
    } catch (e) {
      throw new UsageError(`cannot write ${out}: ${(e as Error).message}`);
    }
    err(`starter template written to ${out}`);
  }
  return 0;
}
