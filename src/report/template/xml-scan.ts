// Where elements and attributes are in a template's text, so a template can be edited in place
// (one attribute replaced, one element inserted) and everything else kept byte for byte.
//
// Runs only on text the safe reader (frx/xml.ts) has already parsed, so the text is well-formed
// XML without a DTD: comments, CDATA sections and processing instructions are skipped, a raw `<`
// never occurs in text or attribute values, and tags nest properly. Linear in the text size; the
// tree is built with an explicit stack.

export interface AttributeSpan {
  name: string;
  /** Offset of the attribute name. */
  start: number;
  /** Offset just after the closing quote. */
  end: number;
  /** The value as written (entities not decoded), without quotes. */
  raw: string;
}

export interface ElementSpan {
  name: string;
  /** Offset of the `<` of the start tag. */
  start: number;
  /** Offset just after the `>` of the start tag. */
  openEnd: number;
  selfClosing: boolean;
  attrs: AttributeSpan[];
  /** Offsets of the end tag (`</name>`); equal to openEnd for a self-closing element. */
  closeStart: number;
  closeEnd: number;
  children: ElementSpan[];
  parent: ElementSpan | null;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function skipTo(text: string, from: number, marker: string): number {
  const i = text.indexOf(marker, from);
  if (i < 0) throw new Error(`unterminated markup: ${marker} expected`);
  return i + marker.length;
}

/** The root element of well-formed XML text, with every element's spans. */
export function scanElements(text: string): ElementSpan {
  const stack: ElementSpan[] = [];
  let root: ElementSpan | null = null;
  let i = text.indexOf('<');
  while (i >= 0 && i < text.length) {
    if (text.startsWith('<!--', i)) i = skipTo(text, i + 4, '-->');
    else if (text.startsWith('<![CDATA[', i)) i = skipTo(text, i + 9, ']]>');
    else if (text.startsWith('<?', i)) i = skipTo(text, i + 2, '?>');
    else if (text.startsWith('<!', i)) i = skipTo(text, i + 2, '>');
    else if (text[i + 1] === '/') {
      const end = skipTo(text, i + 2, '>');
      const el = stack.pop();
      if (!el) throw new Error('end tag without a start tag');
      el.closeStart = i;
      el.closeEnd = end;
      i = end;
    } else {
      const el = readStartTag(text, i, stack[stack.length - 1] ?? null);
      if (el.parent) el.parent.children.push(el);
      else if (!root) root = el;
      if (!el.selfClosing) stack.push(el);
      i = el.openEnd;
    }
    i = text.indexOf('<', i);
  }
  if (!root || stack.length > 0) throw new Error('the XML text is not a complete document');
  return root;
}

function readStartTag(text: string, start: number, parent: ElementSpan | null): ElementSpan {
  let i = start + 1;
  while (i < text.length && !isSpace(text[i]) && text[i] !== '/' && text[i] !== '>') i++;
  const el: ElementSpan = {
    name: text.slice(start + 1, i),
    start,
    openEnd: -1,
    selfClosing: false,
    attrs: [],
    closeStart: -1,
    closeEnd: -1,
    children: [],
    parent,
  };
  for (;;) {
    while (isSpace(text[i])) i++;
    if (i >= text.length) throw new Error('unterminated start tag');
    if (text[i] === '>') {
      el.openEnd = i + 1;
      break;
    }
    if (text[i] === '/' && text[i + 1] === '>') {
      el.openEnd = i + 2;
      el.selfClosing = true;
      el.closeStart = el.closeEnd = el.openEnd;
      break;
    }
    const nameStart = i;
    while (i < text.length && text[i] !== '=' && !isSpace(text[i])) i++;
    const name = text.slice(nameStart, i);
    while (isSpace(text[i])) i++;
    if (text[i] !== '=') throw new Error(`attribute ${name} has no value`);
    i++;
    while (isSpace(text[i])) i++;
    const quote = text[i];
    if (quote !== '"' && quote !== "'") throw new Error(`attribute ${name} is not quoted`);
    const valueEnd = text.indexOf(quote, i + 1);
    if (valueEnd < 0) throw new Error(`attribute ${name} is not terminated`);
    el.attrs.push({ name, start: nameStart, end: valueEnd + 1, raw: text.slice(i + 1, valueEnd) });
    i = valueEnd + 1;
  }
  return el;
}

/** The whitespace that starts the line an offset is on (the element's indentation). */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return m ? m[0] : '';
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits (offsets into the original text). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error('overlapping edits');
    parts.push(text.slice(at, e.start), e.text);
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
