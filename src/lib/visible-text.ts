// Stored text comes from whoever wrote it: a username typed at a failed login, a name, an audit
// detail. Shown on a terminal or a page, its control characters would act instead of being
// seen: a carriage return or newline forges a line, ESC and the C1 controls move the cursor or
// clear the screen, bidirectional overrides reorder what follows. Each such character is
// written as a visible escape instead (`\n`, `\x1b`, `\u202e`). Characters from DEL up take the
// `\uXXXX` form, the one JSON reads too, so JSON text passed through stays valid JSON.
// (Imported by the admin console too: no Node APIs here.)

/** C0 and C1 controls with DEL, the bidirectional marks, embeddings, overrides and isolates, and
 *  the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The text with every control character written as a visible escape: one line, always. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/** Like escapeControls, but the line breaks of a multi-line message stay line breaks. */
export function escapeControlsInLines(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}
