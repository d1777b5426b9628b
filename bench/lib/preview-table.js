// The markdown tables bench/preview-load.js posts to the preview (shared with its client child).

/** Row shapes: `short` has the most rows (the costliest table) per MB; `wide` is four cells of
 *  text with emphasis, more like a real document. */
export const ROWS = {
  short: (i) => `| ${i} | ${(i * 7919) % 1000} |`,
  wide: (i) => `| Customer ${i} & Sons | ${((i * 7919) % 100000) / 100} | *${(i % 12) + 1}/2026* | note ${i % 97} |`,
};

/** A markdown table of about `bytes` bytes (to the row) with rows of shape `rows`. */
export function markdownTable(bytes, rows) {
  const row = ROWS[rows];
  if (!row) throw new Error(`unknown row shape "${rows}" (known: ${Object.keys(ROWS).join(', ')})`);
  const lines = ['| a | b |', '|---|--:|'];
  let size = lines.join('\n').length + 1;
  for (let i = 0; size < bytes; i++) {
    const line = row(i);
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return `${lines.join('\n')}\n`;
}
