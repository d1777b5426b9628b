// The admin console renders stored text as text (Preact), and the audit table, where a failed
// login's username as typed by anyone appears, shows its control characters as escapes: a
// bidirectional override would otherwise reorder the cell, a line separator break it. The table
// is rendered to Preact's element tree and its text read from there (no browser needed).
import { beforeAll, describe, expect, it } from 'vitest';

interface Element {
  type: unknown;
  props: { children?: unknown };
}

/** Every text the element tree shows, in order. */
function texts(node: unknown): string[] {
  if (typeof node === 'string' || typeof node === 'number') return [String(node)];
  if (Array.isArray(node)) return node.flatMap(texts);
  if (node !== null && typeof node === 'object' && 'props' in node) return texts((node as Element).props.children);
  return [];
}

type AuditTable = (props: { entries: unknown[]; caption: string }) => unknown;
let auditTable: AuditTable;

beforeAll(async () => {
  // The console's API module reads the page's base URL when it loads.
  Object.assign(globalThis, { document: { baseURI: 'http://127.0.0.1/admin/' } });
  // A path in a variable: the console is its own TypeScript project (DOM, JSX), built by esbuild.
  const screen = '../../console/src/screens/audit.tsx';
  ({ AuditTable: auditTable } = (await import(/* @vite-ignore */ screen)) as { AuditTable: AuditTable });
});

describe('the console’s audit table', () => {
  it('shows a typed username’s and a detail’s control characters as escapes', () => {
    const tree = auditTable({
      caption: 'Audit entries',
      entries: [
        {
          id: '1',
          at: '2026-01-01T00:00:00.000000Z',
          action: 'login_failed',
          actor: 'admin\u202egnp.exe\u2028\u001b[2J',
          subject: 'x\u0085y',
          client: '127.0.0.1',
          via: 'password',
          data: { reason: 'invalid_credentials', note: '\u2066z\u009b' },
        },
      ],
    });
    const shown = texts(tree).join('|');
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(shown).toContain('admin\\u202egnp.exe\\u2028\\x1b[2J');
    expect(shown).toContain('x\\u0085y');
    // The details as "key: value" lines, their values escaped too.
    expect(shown).toContain('reason:|invalid_credentials');
    expect(shown).toContain('note:|\\u2066z\\u009b');
    expect(shown).toContain('login_failed');
  });
});
