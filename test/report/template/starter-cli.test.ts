// `platform-core starter --data <file.json> --out <file.frx>` (the command module, run in-process).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseArgs, UsageError } from '../../../src/cli/args.js';
import { starterCommand } from '../../../src/cli/starter-command.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import { renderReport } from '../../../src/report/index.js';
import { dataCells, expectedStarterCells } from './helpers.js';

let dir = '';
const sample = {
  orders: [
    { id: 1, customer: 'Ada', lines: [{ sku: 'A', qty: 2 }] },
    { id: 2, customer: null, lines: [] },
  ],
  head: { title: 'Q3' },
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'starter-cli-'));
  writeFileSync(join(dir, 'orders.json'), JSON.stringify(sample));
  writeFileSync(join(dir, 'broken.json'), '{"orders": [');
  writeFileSync(join(dir, 'scalar.json'), '42');
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[], messages: string[] = []): Promise<number> =>
  starterCommand(parseArgs(argv, []), (s) => void messages.push(s));

describe('starter command', () => {
  it('writes a starter template that shows the sample', async () => {
    const out = join(dir, 'orders.frx');
    const messages: string[] = [];
    expect(await run(['starter', '--data', join(dir, 'orders.json'), '--out', out], messages)).toBe(0);
    expect(messages).toEqual([`starter template written to ${out}`]);
    const frx = readFileSync(out, 'utf8');
    expect(loadFrx(frx).report.reportInfo.name).toBe('orders'); // title from the file name
    const r = renderReport({ template: frx, format: 'html' });
    expect(dataCells(frx, r.prepared)).toEqual(expectedStarterCells(sample));
  });

  it('takes a title and writes to stdout with --out -', async () => {
    const chunks: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((
      chunk: string | Uint8Array,
      cb?: (e?: Error | null) => void,
    ) => {
      chunks.push(String(chunk));
      cb?.();
      return true;
    }) as typeof process.stdout.write);
    try {
      expect(await run(['starter', '--data', join(dir, 'orders.json'), '--out', '-', '--title', 'Orders Q3'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(loadFrx(chunks.join('')).report.reportInfo.name).toBe('Orders Q3');
  });

  it('reports bad usage and bad data as usage errors', async () => {
    await expect(run(['starter'])).rejects.toThrow(/--data <file.json>/);
    await expect(run(['starter', 'extra', '--data', 'x.json'])).rejects.toThrow(/unexpected argument: extra/);
    await expect(run(['starter', '--data', join(dir, 'missing.json')])).rejects.toThrow(/no such file/);
    await expect(run(['starter', '--data', join(dir, 'broken.json'), '--out', join(dir, 'x.frx')])).rejects.toThrow(
      /broken\.json: .*malformed JSON/,
    );
    await expect(run(['starter', '--data', join(dir, 'scalar.json'), '--out', join(dir, 'x.frx')])).rejects.toThrow(
      UsageError,
    );
    await expect(
      run(['starter', '--data', join(dir, 'orders.json'), '--out', join(dir, 'no', 'such', 'dir.frx')]),
    ).rejects.toThrow(/cannot write/);
  });
});
