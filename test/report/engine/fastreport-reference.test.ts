// FastReport's reference output (test/fixtures/fastreport-reference) is complete and readable:
// every demo results.tsv says FastReport prepared has its .fpx (a prepared report: XML with source
// pages and printed pages) and its pages.json.gz (JSON with the page count results.tsv gives, each
// page with its size, margins and objects); the demos it could not prepare have neither; every demo named
// is one of ours.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEMO_REPORTS_DIR } from '../../support/fastreport-demos.js';
import { parseXmlTree } from './fpx.js';

const REFERENCE_DIR = new URL('../../fixtures/fastreport-reference/', import.meta.url);
const prepared = (file: string) => new URL(`prepared/${file}`, REFERENCE_DIR);

interface Result {
  status: string;
  demo: string;
  pages: number;
}

const RESULTS: Result[] = readFileSync(new URL('results.tsv', REFERENCE_DIR), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [status = '', demo = '', pages = ''] = line.split('\t');
    return { status, demo, pages: Number(pages) };
  });
const OK = RESULTS.filter((r) => r.status === 'OK');

interface ReferencePage {
  width: number;
  height: number;
  margins: number[];
  objects: { type: string; name: string; x: number; y: number; w: number; h: number }[];
}

describe('FastReport reference output', () => {
  it('has a result for each of the 116 demos: 105 prepared, the 11 dialog demos not', () => {
    const demos = readdirSync(DEMO_REPORTS_DIR)
      .filter((f) => f.endsWith('.frx'))
      .map((f) => f.slice(0, -'.frx'.length))
      .sort();
    expect(RESULTS.map((r) => r.demo).sort()).toEqual(demos);
    expect(OK.length).toBe(105);
    for (const r of RESULTS.filter((x) => x.status !== 'OK')) {
      expect(r.status, r.demo).toBe('FAIL');
      expect(existsSync(prepared(`${r.demo}.fpx`)), r.demo).toBe(false);
    }
  });

  it('holds exactly the prepared demos’ files', () => {
    const expected = OK.flatMap((r) => [`${r.demo}.fpx`, `${r.demo}.pages.json.gz`]).sort();
    expect(readdirSync(prepared('')).sort()).toEqual(expected);
  });

  it('names in lacking-objects.txt only prepared demos', () => {
    const lines = readFileSync(new URL('lacking-objects.txt', REFERENCE_DIR), 'utf8').trim().split('\n');
    expect(lines.length).toBe(21);
    const ok = new Set(OK.map((r) => r.demo));
    for (const line of lines) expect(ok.has(line.slice(0, line.indexOf(':'))), line).toBe(true);
  });

  it.each(OK.map((r) => [r.demo, r] as const))('%s: pages.json.gz and .fpx parse, with its pages', (_, r) => {
    const json = JSON.parse(gunzipSync(readFileSync(prepared(`${r.demo}.pages.json.gz`))).toString('utf8'));
    const pages = json.pages as ReferencePage[];
    expect(pages.length).toBe(r.pages);
    expect(pages.length).toBeGreaterThan(0);
    for (const p of pages) {
      expect(p.width).toBeGreaterThan(0);
      expect(p.height).toBeGreaterThan(0);
      expect(p.margins).toHaveLength(4);
      expect(Array.isArray(p.objects)).toBe(true);
    }
    expect(pages.some((p) => p.objects.length > 0)).toBe(true);
    // The .fpx: gzip-compressed XML, a prepared report with source pages and printed pages.
    const fpx = parseXmlTree(gunzipSync(readFileSync(prepared(`${r.demo}.fpx`))).toString('utf8'));
    expect(fpx.name).toBe('preparedreport');
    const section = (name: string) => fpx.children.find((c) => c.name === name)?.children ?? [];
    expect(section('sourcepages').length).toBeGreaterThan(0);
    expect(section('pages').length).toBeGreaterThan(0);
  });
});
