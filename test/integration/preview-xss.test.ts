// The preview (src/system/markdown.ts, sanitiser src/system/preview-sanitizer.ts) against the XSS corpus in
// test/fixtures/xss-vectors.ts, checked in a real headless Chromium.
//
// Every vector goes through preview() in both modes (markdown and html); the outputs are loaded
// in batches, each output in its own container of one full HTML document. The document is served
// by page.route() at http://xss.test/preview?run=N and opened with page.goto (setContent with a
// real http origin and URL; no request leaves the machine), in one page launched once per file:
// each run is a new document, so nothing of the previous one survives. Two things are checked:
//   1. execution: no dialog (alert/confirm/prompt, from any frame), no call of the alert hook the
//      harness installs in every frame (it also sees calls Chromium would silence, e.g. from a
//      cross-origin frame), no popup and no navigation of the page;
//   2. the DOM Chromium built, read over CDP with shadow roots, template contents and frame
//      documents included: no script/iframe/object/embed/style/base/meta/form/svg/math (or other
//      active) element, no on* attribute, no srcdoc, no style attribute except
//      text-align:left|right|center on th/td, and every URL attribute resolves (by Chromium's URL
//      parser, so entities, tabs, newlines and controls are what the browser makes of them) to
//      http:, https:, mailto: or tel: — or, for img src only, a raster data:image/… URL.
// A batch that executes anything is split in halves, recursively, to name the outputs responsible.
// A control test feeds unsanitised vectors through the same harness and requires both detectors
// to fire, so a broken detector cannot make this test pass.
//
// Chromium: /usr/bin/chromium, else `chromium` on PATH; without it the browser tests are skipped
// with a visible message, unless REQUIRE_CHROMIUM=1 makes that an error.
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview, type PreviewType } from '../../src/system/markdown.js';
import { GENERATED, HAND_WRITTEN, XSS_VECTORS } from '../fixtures/xss-vectors.js';

// ---------------------------------------------------------------------------------------------
// Finding Chromium

function findChromium(): string | undefined {
  const candidates = [
    '/usr/bin/chromium',
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'chromium')),
  ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const CHROMIUM = findChromium();
const REQUIRE_CHROMIUM = process.env.REQUIRE_CHROMIUM === '1';
const SKIP_MESSAGE =
  'Chromium XSS tests SKIPPED: no Chromium at /usr/bin/chromium or on PATH (set REQUIRE_CHROMIUM=1 to make ' +
  'this an error)';
if (!CHROMIUM && !REQUIRE_CHROMIUM) process.stderr.write(`\n*** ${SKIP_MESSAGE} ***\n\n`);

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---------------------------------------------------------------------------------------------
// The harness

/** The page the outputs are loaded into: a real http origin (served by route(), nothing leaves). */
const PAGE_URL = 'http://xss.test/preview';
/** Marks the wrapper's own elements; random, so no output can imitate it. */
const MARK = `data-harness-${randomBytes(6).toString('hex')}`;
const BATCH_SIZE = 100;
/** Time for asynchronous handlers (onerror, onload, ontoggle, autofocus, marquee) to fire. */
const SETTLE_MS = 400;

const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'style',
  'link',
  'base',
  'meta',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'svg',
  'math',
  'template',
  'noscript',
  'portal',
  'fencedframe',
  'param',
]);
/** Attributes whose value is a URL (srcset-like ones hold a list of them). */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'data',
  'xlink:href',
  'poster',
  'background',
  'cite',
  'longdesc',
  'lowsrc',
  'dynsrc',
  'codebase',
  'ping',
  'manifest',
  'icon',
  'archive',
  'classid',
  'profile',
  'usemap',
  'itemtype',
]);
const URL_LIST_ATTRIBUTES = new Set(['srcset', 'imagesrcset']);
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const RASTER_DATA_URL = /^data:image\/(png|gif|jpe?g|webp|avif|bmp)[;,]/i;
const TABLE_ALIGN_STYLE = /^\s*text-align\s*:\s*(left|right|center)\s*;?\s*$/i;

/** Installed in every frame before its scripts: reports alert/confirm/prompt to the harness. */
const HOOK_SCRIPT = `(() => {
  for (const name of ['alert', 'confirm', 'prompt']) {
    const original = window[name];
    Object.defineProperty(window, name, { configurable: true, writable: true, value: function (...args) {
      try { window.__xssHit(name + '(' + args.map(String).join(',') + ')'); } catch (e) {}
      return original.apply(this, args);
    } });
  }
})();`;

interface Item {
  label: string;
  html: string;
}

interface Outcome {
  /** dialogs, alert-hook calls, popups and navigations: anything that means script ran */
  executions: string[];
  /** DOM rule violations, each with the index of the item whose container holds it */
  violations: Array<{ item: number | null; what: string }>;
}

/** What CDP's DOM.getDocument returns (the fields used here). */
interface CdpNode {
  nodeType: number;
  localName?: string;
  nodeName: string;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: CdpNode[];
  templateContent?: CdpNode;
  shadowRootType?: 'user-agent' | 'open' | 'closed';
  contentDocument?: CdpNode;
}

function wrap(items: Item[]): string {
  const containers = items.map((item, i) => `<div ${MARK} data-item="${i}">${item.html}</div>`).join('\n');
  return (
    `<!DOCTYPE ` +
    `html><html ${MARK}><head ${MARK}><title ${MARK}>preview</title></head><body ${MARK}>\n${containers}\n</bod` +
    `y></html>`
  );
}

class Harness {
  private browser!: Browser;
  private page!: Page;
  private cdp!: CDPSession;
  /** The document each run loads, by URL (served by the route below). */
  private readonly documents = new Map<string, string>();
  private runs = 0;
  /** The run in progress: its URL and what it has executed so far. */
  private current: { url: string; executions: string[] } | null = null;

  async start(executablePath: string): Promise<void> {
    this.browser = await chromium.launch({ executablePath, args: LAUNCH_ARGS });
    const context = await this.browser.newContext();
    // The outputs get a real http origin and URL; every other request is refused without
    // leaving the machine (and fails fast, so onerror handlers would fire at once).
    await context.route('**/*', (route) => {
      const body = this.documents.get(route.request().url());
      return body === undefined
        ? route.abort()
        : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
    });
    await context.exposeBinding('__xssHit', (source, message: string) => {
      this.current?.executions.push(`alert hook in ${source.frame.url().slice(0, 60)}: ${message}`);
    });
    await context.addInitScript({ content: HOOK_SCRIPT });
    this.page = await context.newPage();
    this.page.on('dialog', (dialog) => {
      this.current?.executions.push(`${dialog.type()} dialog: ${dialog.message()}`);
      dialog.dismiss().catch(() => undefined);
    });
    this.page.on('popup', (popup) => {
      this.current?.executions.push(`popup: ${popup.url()}`);
      popup.close().catch(() => undefined);
    });
    this.page.on('framenavigated', (frame) => {
      if (this.current && frame === this.page.mainFrame() && frame.url() !== this.current.url) {
        this.current.executions.push(`navigation to ${frame.url()}`);
      }
    });
    this.cdp = await context.newCDPSession(this.page);
  }

  async stop(): Promise<void> {
    await this.browser?.close();
  }

  /** Loads the items into one document; returns what executed and what the DOM check found. */
  async run(items: Item[]): Promise<Outcome> {
    const url = `${PAGE_URL}?run=${++this.runs}`;
    this.documents.set(url, wrap(items));
    this.current = { url, executions: [] };
    try {
      await this.page.goto(url, { waitUntil: 'load', timeout: 15_000 });
      await this.page.waitForTimeout(SETTLE_MS);
      const violations = await this.inspect();
      return { executions: [...this.current.executions], violations };
    } finally {
      this.current = null;
      this.documents.delete(url);
    }
  }

  /** The DOM rules, over the whole document as Chromium built it (see the file comment). */
  private async inspect(): Promise<Outcome['violations']> {
    const { root } = (await this.cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: CdpNode };
    const violations: Outcome['violations'] = [];
    const urls: Array<{ item: number | null; element: string; attribute: string; value: string }> = [];

    const visit = (node: CdpNode, item: number | null): void => {
      let here = item;
      if (node.nodeType === 1) {
        const attributes: Array<[string, string]> = [];
        for (let i = 0; i + 1 < (node.attributes?.length ?? 0); i += 2)
          attributes.push([node.attributes![i]!, node.attributes![i + 1]!]);
        const element = (node.localName ?? node.nodeName).toLowerCase();
        if (attributes.some(([name]) => name === MARK)) {
          const index = attributes.find(([name]) => name === 'data-item')?.[1];
          if (index !== undefined) here = Number(index);
        } else {
          if (FORBIDDEN_ELEMENTS.has(element)) violations.push({ item: here, what: `<${element}> element` });
          for (const [rawName, value] of attributes) {
            const name = rawName.toLowerCase();
            const show = `<${element} ${rawName}=${JSON.stringify(value.slice(0, 80))}>`;
            if (name.startsWith('on')) violations.push({ item: here, what: `event handler attribute ${show}` });
            else if (name === 'srcdoc') violations.push({ item: here, what: `srcdoc attribute ${show}` });
            else if (name === 'style' && !(['th', 'td'].includes(element) && TABLE_ALIGN_STYLE.test(value))) {
              violations.push({ item: here, what: `style attribute ${show}` });
            } else if (URL_ATTRIBUTES.has(name)) urls.push({ item: here, element, attribute: name, value });
            else if (URL_LIST_ATTRIBUTES.has(name)) {
              for (const candidate of value.split(','))
                urls.push({ item: here, element, attribute: name, value: candidate.trim().split(/\s+/)[0] ?? '' });
            }
          }
        }
      }
      // Author shadow roots (open and closed), template contents and frame documents are
      // checked; the browser's own user-agent shadow roots (broken-image alt text, <details>
      // internals) are not author content.
      const shadowRoots = (node.shadowRoots ?? []).filter((r) => r.shadowRootType !== 'user-agent');
      for (const child of [...(node.children ?? []), ...shadowRoots]) visit(child, here);
      if (node.templateContent) visit(node.templateContent, here);
      if (node.contentDocument) visit(node.contentDocument, here);
    };
    visit(root, null);

    // URLs resolved by Chromium's own URL parser, against the document's base URL.
    const resolved = (await this.page.evaluate(
      `(${JSON.stringify(urls.map((u) => u.value))}).map((v) => { try { const u = new URL(v, ` +
        `document.baseURI); return [u.protocol, u.href.slice(0, 40)]; } catch (e) { return null; } })`,
    )) as Array<[protocol: string, href: string] | null>;
    urls.forEach((url, i) => {
      const r = resolved[i];
      if (!r) return; // not a URL: nothing to load or navigate to
      const [protocol, href] = r;
      const allowed =
        ALLOWED_PROTOCOLS.has(protocol) ||
        (protocol === 'data:' && url.element === 'img' && url.attribute === 'src' && RASTER_DATA_URL.test(href));
      if (!allowed) {
        violations.push({
          item: url.item,
          what: `${protocol} URL in <${url.element} ${url.attribute}=${JSON.stringify(url.value.slice(0, 80))}>`,
        });
      }
    });
    return violations;
  }
}

/**
 * Runs items in batches. A batch that executes anything is split in halves, recursively, until
 * the outputs responsible are named one by one.
 */
async function runAll(harness: Harness, items: Item[]): Promise<{ executed: string[]; violations: string[] }> {
  const executed: string[] = [];
  const violations: string[] = [];
  const blame = async (group: Item[], executions: string[]): Promise<void> => {
    if (group.length === 1) {
      executed.push(`${group[0]!.label}: ${executions.join('; ')}`);
      return;
    }
    const halves = [group.slice(0, group.length >> 1), group.slice(group.length >> 1)];
    let found = false;
    for (const half of halves) {
      const outcome = await harness.run(half);
      if (outcome.executions.length > 0) {
        found = true;
        await blame(half, outcome.executions);
      }
    }
    if (!found) executed.push(`only together: ${group.map((i) => i.label).join(' + ')}: ${executions.join('; ')}`);
  };
  for (let start = 0; start < items.length; start += BATCH_SIZE) {
    const batch = items.slice(start, start + BATCH_SIZE);
    const outcome = await harness.run(batch);
    for (const v of outcome.violations) {
      violations.push(
        `${v.item === null ? `batch at ${start}, outside every container` : batch[v.item]!.label}: ${v.what}`,
      );
    }
    if (outcome.executions.length > 0) await blame(batch, outcome.executions);
  }
  return { executed, violations };
}

const MODES: PreviewType[] = ['markdown', 'html'];
const show = (s: string, max = 160) => (s.length > max ? `${JSON.stringify(s.slice(0, max))}…` : JSON.stringify(s));

// ---------------------------------------------------------------------------------------------

describe('preview: XSS corpus', () => {
  it('has at least 150 distinct vectors, hand-written and generated', () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(XSS_VECTORS).size).toBe(XSS_VECTORS.length);
    expect(HAND_WRITTEN.length).toBeGreaterThan(100);
    expect(GENERATED.length).toBeGreaterThan(100);
  });

  // Without a browser: the output, as text, is only allow-listed elements with allow-listed
  // attributes (the sanitiser writes every attribute double-quoted with `&`, `"`, `<`, `>`
  // escaped, and every `<` of text as `&lt;`), and no URL has another scheme.
  it('every output is allow-listed markup, read as text', () => {
    const allowed: Record<string, string[]> = {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      ol: ['start'],
      code: ['class'],
      abbr: ['title'],
      th: ['align', 'style', 'colspan', 'rowspan'],
      td: ['align', 'style', 'colspan', 'rowspan'],
    };
    for (const tag of [
      'p',
      'br',
      'hr',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'blockquote',
      'pre',
      'em',
      'strong',
      'del',
      's',
      'ul',
      'li',
      'table',
      'thead',
      'tbody',
      'tfoot',
      'tr',
      'caption',
      'sup',
      'sub',
      'kbd',
      'b',
      'i',
      'u',
      'span',
      'div',
      'dl',
      'dt',
      'dd',
      'figure',
      'figcaption',
      'mark',
      'small',
      'q',
      'cite',
    ])
      allowed[tag] = [];
    const decode = (v: string) =>
      v
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
        .replace(/&amp;/g, '&');
    const problems: string[] = [];
    for (const vector of XSS_VECTORS) {
      for (const mode of MODES) {
        const html = preview(vector, mode);
        const complain = (what: string) => problems.push(`${mode} ${show(vector)} -> ${show(html)}: ${what}`);
        for (const m of html.matchAll(/<(\/?)([^\s/>]*)([^>]*)>|</g)) {
          if (m[0] === '<') {
            complain('a "<" that is not an allow-listed tag');
            continue;
          }
          const name = m[2]!;
          if (!(name in allowed)) {
            complain(`element ${name}`);
            continue;
          }
          if (m[1]) {
            if (m[3]!.trim()) complain(`attributes on </${name}>`);
            continue;
          }
          const rest = m[3]!
            .replace(/\s*\/$/, '')
            .replace(/\s+([a-z-]+)="([^"<>]*)"/g, (_, attr: string, raw: string) => {
              const value = decode(raw);
              if (!allowed[name]!.includes(attr)) complain(`attribute ${attr} on ${name}`);
              if (attr === 'style' && !TABLE_ALIGN_STYLE.test(value)) complain(`style ${show(value)}`);
              if (attr === 'href' || attr === 'src') {
                const scheme = /^([a-z][a-z0-9+.-]*):/i
                  .exec(value.replace(/[\u0000-\u0020]+/g, ''))?.[1]
                  ?.toLowerCase();
                const ok =
                  scheme === undefined ||
                  ['http', 'https', 'mailto', 'tel'].includes(scheme) ||
                  (attr === 'src' && RASTER_DATA_URL.test(value));
                if (!ok) complain(`${scheme}: URL in ${attr}`);
              }
              return '';
            });
          if (rest.trim()) complain(`unparsed attribute text ${show(rest)} on ${name}`);
        }
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it.runIf(!CHROMIUM && REQUIRE_CHROMIUM)('needs Chromium (REQUIRE_CHROMIUM=1)', () => {
    expect.fail('REQUIRE_CHROMIUM=1 but no Chromium at /usr/bin/chromium or on PATH');
  });
});

describe.runIf(CHROMIUM !== undefined)('preview: XSS corpus in headless Chromium', () => {
  const harness = new Harness();

  beforeAll(async () => {
    await harness.start(CHROMIUM!);
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('control: the detectors see unsanitised vectors execute and flag their DOM', async () => {
    // [vector, does it execute on load?]
    const controls: Array<[string, boolean]> = [
      ['<img src=x onerror=alert(1)>', true],
      ['<svg onload=alert(1)>', true],
      ['<script>alert(1)</script>', true],
      ['<details open ontoggle=alert(1)>', true],
      ['<iframe srcdoc="<script>alert(document.domain)</script>"></iframe>', true],
      ['<iframe src="data:text/html,<script>alert(1)</script>"></iframe>', true],
      ['<a href="javascript:alert(1)">x</a>', false],
      ['<a href="&#x6A;avascript:alert(1)">x</a>', false],
      ['<a href="java\tscript:alert(1)">x</a>', false],
      ['<img src="da\tta:image/svg+xml,<svg xmlns=\'http://www.w3.org/2000/svg\'/>">', false],
      ['<div style="color:red">x</div>', false],
      ['<p onclick="alert(1)">x</p>', false],
      ['<div><template shadowrootmode="closed"><p onclick="alert(1)">x</p></template></div>', false],
    ];
    const missed: string[] = [];
    // Execution, one vector per page.
    for (const [vector] of controls.filter(([, executes]) => executes)) {
      const outcome = await harness.run([{ label: vector, html: vector }]);
      if (outcome.executions.length === 0) missed.push(`not seen executing: ${vector}`);
    }
    // The DOM check, all in one page: each container's violation is attributed to it.
    const outcome = await harness.run(controls.map(([vector]) => ({ label: vector, html: vector })));
    controls.forEach(([vector], i) => {
      if (!outcome.violations.some((v) => v.item === i)) missed.push(`not flagged by the DOM check: ${vector}`);
    });
    if (outcome.violations.some((v) => v.item === null)) missed.push('violation outside every container');
    expect(missed, missed.join('\n')).toEqual([]);

    // In a batch of sanitised outputs, one planted unsanitised vector is found and named alone.
    const batch = XSS_VECTORS.slice(0, 12).map((v, i) => ({ label: `safe ${i}`, html: preview(v, 'html') }));
    batch.splice(7, 0, { label: 'planted', html: '<img src=x onerror=alert(1)>' });
    const found = await runAll(harness, batch);
    expect(found.executed.map((e) => e.split(':')[0])).toEqual(['planted']);
    expect(found.violations.map((v) => v.split(':')[0])).toEqual(['planted']);
  });

  it('no vector executes or leaves active content, in either mode', async () => {
    const items: Item[] = XSS_VECTORS.flatMap((vector, i) =>
      MODES.map((mode) => {
        const html = preview(vector, mode);
        return { label: `vector #${i} (${mode}) ${show(vector)} -> ${show(html)}`, html };
      }),
    );
    const started = Date.now();
    const { executed, violations } = await runAll(harness, items);
    console.log(
      `XSS corpus: ${XSS_VECTORS.length} vectors (${HAND_WRITTEN.length} hand-written, ${GENERATED.length} ` +
        `generated) × ${MODES.length} modes = ` +
        (`${items.length} outputs loaded in Chromium in ${Date.now() - started} ms: ${executed.length} ` +
          `executed, ${violations.length} DOM violations`),
    );
    expect(executed, `script ran for:\n${executed.join('\n')}`).toEqual([]);
    expect(violations, `active content survived:\n${violations.join('\n')}`).toEqual([]);
  });
});
