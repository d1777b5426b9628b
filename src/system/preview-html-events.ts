// HTML to a balanced stream of start-tag, text and end-tag events, for the preview sanitiser.
//
// The tokenizer is htmlparser2's (tags, attributes, character references, comments, raw-text
// elements: script, style, textarea, xmp, title). The element rules on top of it are htmlparser2's
// Parser rules, restated here because its Parser costs twice its tokenizer (slices and attribute
// objects for every tag, a stack kept with unshift/shift); the sanitiser needs neither for the
// elements it drops. The rules: a start tag implicitly closes the open elements its name implies
// (a new <p> or <div> closes an open <p>, <li> an <li>, <tr> a <tr>/<td>/<th>, …); void
// elements close at once; an end tag closes every element up to the innermost open one of its
// name, and is ignored when none is open (a stray </p> is an empty <p></p>, a stray </br> a <br>);
// inside <svg>/<math> (and not in their HTML integration points) `<x/>` closes itself; at the end
// everything still open is closed. Comments, CDATA, declarations and processing instructions
// produce no event. test/unit/preview-sanitizer.test.ts checks the events against htmlparser2's
// Parser on generated HTML.
import { Tokenizer, type QuoteType, type TokenizerCallbacks } from 'htmlparser2';

/**
 * Where the events go. Each start has one end (a void element's right after it); the one
 * exception is a start tag cut off by the end of the input (`<div><div`): like htmlparser2, the
 * element was opened but its start tag never completed, so it gets an end without a start.
 */
export interface ElementEventSink {
  /** Whether the attributes of the start tag `tag` are wanted (null is passed when not). */
  wantsAttributes(tag: string): boolean;
  start(tag: string, attributes: Map<string, string> | null): void;
  text(text: string): void;
  end(tag: string): void;
}

const P_TAG = new Set(['p']);
const FORM_TAGS = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTION_TAGS = new Set(['thead', 'tbody']);
const DD_DT_TAGS = new Set(['dd', 'dt']);
const RT_RP_TAGS = new Set(['rt', 'rp']);
/** Start tag → the open elements it closes (while they are the innermost open element). */
const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag): [string, ReadonlySet<string>] => [tag, P_TAG]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag): [string, ReadonlySet<string>] => [
    tag,
    FORM_TAGS,
  ]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT_TAGS],
  ['dt', DD_DT_TAGS],
  ...[
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((tag): [string, ReadonlySet<string>] => [tag, P_TAG]),
  ['rt', RT_RP_TAGS],
  ['rp', RT_RP_TAGS],
  ['tbody', TABLE_SECTION_TAGS],
  ['tfoot', TABLE_SECTION_TAGS],
]);
const VOID_ELEMENTS = [
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
];
const FOREIGN_CONTEXT_ELEMENTS = ['math', 'svg'];
const HTML_INTEGRATION_ELEMENTS = ['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title'];

/** What the rules above say about one element name: looked up once per tag. */
interface ElementRule {
  isVoid: boolean;
  /** it opens (and its end tag leaves) a context: foreign (svg, math) or HTML (integration point) */
  context: 'foreign' | 'html' | null;
  /** the open elements its start tag closes */
  closes: ReadonlySet<string> | null;
}
const ORDINARY_ELEMENT: ElementRule = { isVoid: false, context: null, closes: null };
const ELEMENT_RULES = new Map<string, ElementRule>();
const ruleFor = (tag: string) => ELEMENT_RULES.get(tag) ?? ELEMENT_RULES.set(tag, { ...ORDINARY_ELEMENT }).get(tag)!;
for (const [tag, closes] of OPEN_IMPLIES_CLOSE) ruleFor(tag).closes = closes;
for (const tag of VOID_ELEMENTS) ruleFor(tag).isVoid = true;
for (const tag of FOREIGN_CONTEXT_ELEMENTS) ruleFor(tag).context = 'foreign';
for (const tag of HTML_INTEGRATION_ELEMENTS) ruleFor(tag).context = 'html';

/**
 * Up to this many open elements, an end tag that is not the innermost one's searches the stack;
 * past it, per-name counts of open elements are kept so that an end tag for a name not open is
 * ignored without searching (else `<b>`×n followed by `</i>`×n would cost n² steps).
 */
const SEARCH_LIMIT = 64;

class ElementEvents implements TokenizerCallbacks {
  /** How much of the input the tokenizer has been given. */
  written = 0;
  /** Where the last text event ended: the tokenizer read up to here in its text state. */
  private textEnd = 0;
  /** Open elements, innermost last, and their rules. */
  private readonly open: string[] = [];
  private readonly openRules: ElementRule[] = [];
  /** How many elements of each name are open; kept once the stack has been deep (SEARCH_LIMIT). */
  private openCount: Map<string, number> | null = null;
  /** Whether `<x/>` closes itself here (inside svg/math), innermost last. */
  private readonly foreign: boolean[] = [false];
  private tag = '';
  private rule = ORDINARY_ELEMENT;
  private attributes: Map<string, string> | null = null;
  private attributeName = '';
  private attributeValue = '';

  /** The input is `source` from `base` on: the tokenizer's indexes count from `base`. */
  constructor(
    private readonly source: string,
    private readonly base: number,
    private readonly sink: ElementEventSink,
  ) {}

  private slice(start: number, end: number): string {
    return this.source.slice(this.base + start, this.base + end);
  }

  /**
   * Whether the parser is back where it started: no element open, no foreign context, and the
   * tokenizer in plain text with nothing pending (the input so far ends in text it has passed on,
   * not inside a tag, comment, character reference or raw-text element).
   */
  atRest(): boolean {
    const inText = this.textEnd === this.written && this.source.charCodeAt(this.base + this.written - 1) === 0x0a;
    return inText && this.open.length === 0 && this.foreign.length === 1 && !this.foreign[0];
  }

  ontext(start: number, end: number): void {
    this.sink.text(this.slice(start, end));
    this.textEnd = end;
  }

  ontextentity(codePoint: number, end: number): void {
    this.sink.text(String.fromCodePoint(codePoint));
    this.textEnd = end;
  }

  onopentagname(start: number, end: number): void {
    this.openElement(this.slice(start, end).toLowerCase());
  }

  private openElement(tag: string): void {
    const rule = ELEMENT_RULES.get(tag) ?? ORDINARY_ELEMENT;
    this.tag = tag;
    this.rule = rule;
    if (rule.closes !== null) {
      while (this.open.length > 0 && rule.closes.has(this.open[this.open.length - 1]!)) this.sink.end(this.pop());
    }
    if (!rule.isVoid) {
      this.push(tag, rule);
      if (rule.context !== null) this.foreign.push(rule.context === 'foreign');
    }
    // Decided once the implied end tags are out: they can change what the sink wants.
    this.attributes = this.sink.wantsAttributes(tag) ? new Map() : null;
  }

  onattribname(start: number, end: number): void {
    if (this.attributes !== null) this.attributeName = this.slice(start, end).toLowerCase();
  }

  onattribdata(start: number, end: number): void {
    if (this.attributes !== null) this.attributeValue += this.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    if (this.attributes !== null) this.attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(_quote: QuoteType): void {
    // A repeated attribute keeps its first value, as in the browser.
    if (this.attributes !== null && !this.attributes.has(this.attributeName))
      this.attributes.set(this.attributeName, this.attributeValue);
    this.attributeValue = '';
  }

  onopentagend(): void {
    this.endStartTag();
  }

  private endStartTag(): void {
    this.sink.start(this.tag, this.attributes);
    this.attributes = null;
    if (this.rule.isVoid) this.sink.end(this.tag);
    this.tag = '';
  }

  onselfclosingtag(): void {
    if (!this.foreign[this.foreign.length - 1]) {
      this.endStartTag(); // `/>` means nothing in HTML
      return;
    }
    const tag = this.tag;
    this.endStartTag();
    if (this.open[this.open.length - 1] === tag) this.sink.end(this.pop());
  }

  onclosetag(start: number, end: number): void {
    const top = this.open.length - 1;
    if (
      top >= 0 &&
      this.open[top]!.length === end - start &&
      this.source.startsWith(this.open[top]!, this.base + start)
    ) {
      // The usual case, an end tag spelled as the innermost element's name: no slice, no lookup.
      if (this.openRules[top]!.context !== null && this.foreign.length > 0) this.foreign.pop();
      this.sink.end(this.pop());
      return;
    }
    const tag = this.slice(start, end).toLowerCase();
    const rule = ELEMENT_RULES.get(tag) ?? ORDINARY_ELEMENT;
    // As htmlparser2 does: any such end tag leaves the innermost context, open or not.
    if (rule.context !== null && this.foreign.length > 0) this.foreign.pop();
    if (rule.isVoid) {
      if (tag === 'br') {
        this.sink.start('br', this.sink.wantsAttributes('br') ? new Map() : null);
        this.sink.end('br');
      }
      return;
    }
    const index = this.lastIndexOfOpen(tag);
    if (index !== -1) {
      while (this.open.length > index) this.sink.end(this.pop());
    } else if (tag === 'p') {
      this.openElement('p');
      this.endStartTag();
      if (this.open[this.open.length - 1] === 'p') this.sink.end(this.pop());
    }
  }

  /** Where the innermost open element named `tag` is on the stack, or -1. */
  private lastIndexOfOpen(tag: string): number {
    const top = this.open.length - 1;
    if (top >= 0 && this.open[top] === tag) return top; // the usual case: the innermost element
    if (this.openCount === null) {
      if (this.open.length <= SEARCH_LIMIT) return this.open.lastIndexOf(tag);
      this.openCount = new Map();
      for (const name of this.open) this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
    }
    // Found at a distance d, the d elements above it are then closed: linear time overall.
    return (this.openCount.get(tag) ?? 0) > 0 ? this.open.lastIndexOf(tag) : -1;
  }

  private push(tag: string, rule: ElementRule): void {
    this.open.push(tag);
    this.openRules.push(rule);
    if (this.openCount !== null) this.openCount.set(tag, (this.openCount.get(tag) ?? 0) + 1);
  }

  private pop(): string {
    const tag = this.open.pop()!;
    this.openRules.pop();
    if (this.openCount !== null) this.openCount.set(tag, this.openCount.get(tag)! - 1);
    return tag;
  }

  onend(): void {
    while (this.open.length > 0) this.sink.end(this.pop());
  }

  // No events: comments, CDATA (a comment in HTML), <!…> declarations, <?…> instructions.
  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
}

/**
 * The HTML in `source` from `start` on, read in pieces (advanceTo), its events sent to `sink` as
 * they come. (Pieces of one string: the parser slices names and text out of `source` itself.)
 */
export class HtmlEventStream {
  private readonly events: ElementEvents;
  private readonly tokenizer: Tokenizer;

  constructor(
    private readonly source: string,
    private readonly start: number,
    sink: ElementEventSink,
  ) {
    this.events = new ElementEvents(source, start, sink);
    this.tokenizer = new Tokenizer({ decodeEntities: true }, this.events);
  }

  /** Reads the source up to `end` (an index into the whole source). */
  advanceTo(end: number): void {
    const from = this.start + this.events.written;
    if (end <= from) return;
    this.events.written = end - this.start;
    this.tokenizer.write(this.source.slice(from, end));
  }

  /**
   * Whether the HTML so far has left the parser in its initial state, so that what follows is
   * parsed exactly as if it came alone (see ElementEvents.atRest). Only ever true after input
   * ending in a newline.
   */
  atRest(): boolean {
    return this.events.atRest();
  }

  /** The end of the input: what is still open is closed. */
  end(): void {
    this.tokenizer.end();
  }
}

/** Runs `html` through the tokenizer and the element rules above, into `sink`. */
export function parseHtmlEvents(html: string, sink: ElementEventSink): void {
  const stream = new HtmlEventStream(html, 0, sink);
  stream.advanceTo(html.length);
  stream.end();
}
