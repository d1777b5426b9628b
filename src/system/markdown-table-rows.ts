// GFM tables whose body rows are parsed and rendered a batch at a time, instead of all at once.
//
// markdown-it's table rule makes about ten objects per body row (tr, td and inline tokens, the
// cells' text tokens) and all of them stay alive until the whole document is rendered. A 1 MB
// table of short rows is then two million tokens and half a gigabyte of heap; most of the time
// went to the garbage collector marking that growing heap again and again (3.6 s to parse 1 MB
// of `a|b` rows, 5.5 times as long as a quarter of it). Here markdown-it's rule still decides
// whether a table starts and builds its head; the body becomes one `table_body_rows` token that
// only notes where each row's text is. When the document is rendered, the rows are turned into
// the tokens markdown-it would have made, BATCH_ROWS at a time, run through the same core chain
// (inline parse, text_join…) and the same renderer, and dropped: the HTML is markdown-it's byte
// for byte (test/unit/markdown-table-rows.test.ts compares them), in time and memory linear in
// the size of the table.

import type MarkdownIt from 'markdown-it';
import type { StateBlock, Token } from 'markdown-it';
import markdownItTable from 'markdown-it/lib/rules_block/table.mjs';

const TABLE_BODY_ROWS = 'table_body_rows';

/** markdown-it stops a table once its rows left this many cells empty by having fewer than the
 *  header (so a few bytes cannot expand into megabytes of empty cells); the same limit here. */
const MAX_AUTOCOMPLETED_CELLS = 0x10000;

/** Rows turned into tokens at a time when rendering: enough to amortise the core chain's set-up,
 *  few enough that they die young. */
const BATCH_ROWS = 256;

interface TableBodyRows {
  /** The source the offsets point into (the block state's, already normalised). */
  source: string;
  /** The document's env: a cell's reference links resolve against its definitions, wherever in
   *  the document they are, as they do when markdown-it parses the cells after the blocks. */
  env: unknown;
  /** Start and end offset of each row's text (what markdown-it's rule reads), flattened. */
  lines: number[];
  /** Per column, the attributes its cells get (the alignment style), as the header's. */
  cellAttrs: Array<Token['attrs']>;
  /** Whether any row holds a `<`: without one, no cell can hold raw HTML. */
  mayHoldRawHtml: boolean;
  /** Once rendered: whether a cell held raw HTML (by the predicate given to compactTableBodies). */
  heldRawHtml: boolean;
}

export function isTableBodyRows(token: Token): boolean {
  return token.type === TABLE_BODY_ROWS;
}

/** Whether the rows may hold raw HTML; known for sure only once rendered (heldRawHtml). */
export function tableRowsMayHoldRawHtml(token: Token): boolean {
  return (token.meta as TableBodyRows).mayHoldRawHtml;
}

export function tableRowsHeldRawHtml(token: Token): boolean {
  return (token.meta as TableBodyRows).heldRawHtml;
}

/**
 * A row's cells as markdown-it's table rule splits them: at every `|` that does not follow a
 * backslash (`\|` is a `|` in the cell, its backslash dropped), leaving out the empty cell
 * before a leading and after a trailing `|`. The cells are not trimmed.
 */
export function rowCells(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let from = 0;
  for (let bar = text.indexOf('|'); bar !== -1; bar = text.indexOf('|', bar + 1)) {
    if (bar > 0 && text.charCodeAt(bar - 1) === 0x5c /* \ */) {
      cell += text.slice(from, bar - 1);
      from = bar;
    } else {
      cells.push(cell + text.slice(from, bar));
      cell = '';
      from = bar + 1;
    }
  }
  cells.push(cell + text.slice(from));
  if (cells[0] === '') cells.shift();
  if (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

/**
 * Replaces markdown-it's table rule (enabled on `md`) by one that keeps the body rows compact
 * until rendering. `holdsRawHtml` is how the caller tells raw HTML in inline tokens; the rows'
 * verdict is kept for tableRowsHeldRawHtml.
 */
export function compactTableBodies(md: MarkdownIt, holdsRawHtml: (inlineTokens: Token[]) => boolean): void {
  md.block.ruler.at('table', tableWithCompactBody, { alt: ['paragraph', 'reference'] });
  md.renderer.rules[TABLE_BODY_ROWS] = (tokens, idx, options, _env, renderer) => {
    const rows = tokens[idx]!.meta as TableBodyRows;
    let html = '';
    for (let row = 0; row < rows.lines.length / 2; row += BATCH_ROWS) {
      const core = new md.core.State('', md, rows.env);
      core.tokens = rowTokens(core.Token, rows, row, Math.min(row + BATCH_ROWS, rows.lines.length / 2));
      // The core chain as for a whole document: its block rule has no source to parse here, its
      // inline rule parses the cells, the rules after it see them as they would have.
      md.core.process(core);
      if (!rows.heldRawHtml)
        rows.heldRawHtml = core.tokens.some((t) => t.children !== null && holdsRawHtml(t.children));
      html += flattened(renderer.render(core.tokens, options, rows.env));
    }
    return html;
  };
}

/**
 * `text` as one flat string. The renderer builds its output with `+=`, which V8 keeps as a tree
 * of a node per piece until the string is read; for a large table that is millions of nodes,
 * alive until the end and marked by every collection meanwhile (4–6 times the render's own
 * time for 1 MB of short rows). Reading a character makes V8 flatten the tree into one string
 * (an engine detail: elsewhere this only costs the read).
 */
function flattened(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** The tokens markdown-it's table rule makes for rows [from, to). */
function rowTokens(TokenClass: typeof Token, rows: TableBodyRows, from: number, to: number): Token[] {
  const tokens: Token[] = [];
  const blockToken = (type: string, tag: string, nesting: -1 | 0 | 1) => {
    const token = new TokenClass(type, tag, nesting);
    token.block = true;
    tokens.push(token);
    return token;
  };
  for (let row = from; row < to; row++) {
    const cells = rowCells(rows.source.slice(rows.lines[2 * row], rows.lines[2 * row + 1]).trim());
    blockToken('tr_open', 'tr', 1);
    for (let column = 0; column < rows.cellAttrs.length; column++) {
      const attrs = rows.cellAttrs[column]!;
      blockToken('td_open', 'td', 1).attrs = attrs === null ? null : attrs.map(([name, value]) => [name, value]);
      const inline = blockToken('inline', '', 0);
      inline.content = cells[column]?.trim() ?? '';
      inline.children = [];
      blockToken('td_close', 'td', -1);
    }
    blockToken('tr_close', 'tr', -1);
  }
  return tokens;
}

/** markdown-it's table rule, with the body kept as one TABLE_BODY_ROWS token. */
function tableWithCompactBody(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const headStart = state.tokens.length;
  // With the lines ending after the delimiter row, markdown-it's rule checks that a table
  // starts here and makes its head (table_open, thead with the header cells, table_close).
  if (!markdownItTable(state, startLine, Math.min(endLine, startLine + 2), silent)) return false;
  if (silent) return true;

  state.tokens.pop(); // table_close: pushed again after the body
  state.level++; // back inside the table (pushing table_close had left it)
  const tableOpen = state.tokens[headStart]!;
  const cellAttrs = state.tokens
    .slice(headStart)
    .filter((t) => t.type === 'th_open')
    .map((t) => t.attrs);

  // The body rows, as markdown-it's rule reads them (its parent type is 'table' meanwhile, which
  // the terminators' checks look at).
  const parentType = state.parentType;
  state.parentType = 'table' as StateBlock['parentType'];
  const terminators = state.md.block.ruler.getRules('blockquote');
  const lines: number[] = [];
  let autocompleted = 0;
  let mayHoldRawHtml = false;
  let line = startLine + 2;
  for (; line < endLine; line++) {
    if (state.sCount[line]! < state.blkIndent) break;
    if (terminators.some((terminates) => terminates(state, line, endLine, true))) break;
    const begin = state.bMarks[line]! + state.tShift[line]!;
    const end = state.eMarks[line]!;
    const text = state.src.slice(begin, end).trim();
    if (text === '') break;
    if (state.sCount[line]! - state.blkIndent >= 4) break;
    autocompleted += cellAttrs.length - rowCells(text).length;
    if (autocompleted > MAX_AUTOCOMPLETED_CELLS) break;
    lines.push(begin, end);
    if (!mayHoldRawHtml) mayHoldRawHtml = text.includes('<');
  }

  if (lines.length > 0) {
    state.push('tbody_open', 'tbody', 1).map = [startLine + 2, line];
    const rows: TableBodyRows = {
      source: state.src,
      env: state.env,
      lines,
      cellAttrs,
      mayHoldRawHtml,
      heldRawHtml: false,
    };
    const body = state.push(TABLE_BODY_ROWS, '', 0);
    body.map = [startLine + 2, line];
    body.meta = rows;
    state.push('tbody_close', 'tbody', -1);
  }
  state.push('table_close', 'table', -1);
  tableOpen.map = [startLine, line];
  state.parentType = parentType;
  state.line = line;
  return true;
}
