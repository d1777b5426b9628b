// The SQL-Server-ordered UUID generator against the `uuid` package's v7 (issue 4 aims ≥ 1.5×),
// and the share of a `uuids?n=10000` answer spent generating versus JSON-encoding.
import { v7 } from 'uuid';
import { SqlServerUuidGenerator } from '../dist/system/sqlserver-uuid.js';
import { compare, fmt } from './lib/timing.js';

export const description = 'uuid generator vs the uuid package (v7); generation vs JSON encoding for n=10000';

export async function run({ options, log }) {
  const gen = new SqlServerUuidGenerator();
  const ms = Math.max(200, options.duration * 100);
  const r = compare({ ours: () => gen.next(), uuidV7: () => v7() }, { rounds: Math.max(3, options.rounds), ms });
  log(`generator      ${fmt(r.ours)}`);
  log(`uuid v7        ${fmt(r.uuidV7)}`);
  log(`ratio ours/uuid.v7 = ${(r.ours / r.uuidV7).toFixed(2)} (aim ≥ 1.5)`);

  const batch = () => {
    const out = new Array(10_000);
    for (let i = 0; i < out.length; i++) out[i] = gen.next();
    return out;
  };
  // Fresh values each time: V8 builds the strings lazily and JSON.stringify pays for flattening
  // them, so encoding is measured on new batches (the real path), not on already-flat ones.
  const b = compare({ generate: batch, generateAndEncode: () => JSON.stringify(batch()) }, { rounds: 5, ms: 300 });
  const gen_ms = 1000 / b.generate;
  const total_ms = 1000 / b.generateAndEncode;
  log(
    `n=10000: generate ${gen_ms.toFixed(2)} ms, generate+JSON ${total_ms.toFixed(2)} ms → JSON encoding ` +
      `is ${(((total_ms - gen_ms) / total_ms) * 100).toFixed(0)}% of the work`,
  );
  const sample = batch();
  const failures = [];
  if (new Set(sample).size !== sample.length) failures.push('duplicate UUIDs in a batch');
  return { failures };
}
