// The preview's HTML sanitiser: an allow-list filter (preview-policy.ts) over an HTML parser
// (preview-html-events.ts: htmlparser2's tokenizer and element rules). It replaced sanitize-html,
// whose generic machinery (per-element text buffers, option lookups, a CSS parser) cost 1.5× the
// markdown parse on raw-HTML-heavy input. For the same policy it writes the same output as
// sanitize-html (test/unit/preview-sanitizer.test.ts compares the two on generated HTML), except
// that a style attribute it cannot read plainly is dropped whole (see filterTableStyle).
//
// Why it is safe by construction:
//   - elements are built the way an HTML parser builds them: implied end tags, raw-text elements
//     (script, style, textarea, xmp, title), comments, CDATA and processing instructions (dropped);
//   - only allow-listed elements are written, with only allow-listed attributes; everything else
//     is dropped (the content of script/style/textarea/option/xmp with it);
//   - text and attribute values arrive with character references decoded, so every check sees
//     the value the browser will see, and they are written back escaped (`&`, `<`, `>`, and `"`
//     in attribute values, always double-quoted): the browser decodes exactly the checked string,
//     whatever spelling (`&#x6A;avascript:`, `java&Tab;script:`) the input used;
//   - every written start tag gets its end tag, innermost first: the output is balanced.
import { HtmlEventStream, parseHtmlEvents, type ElementEventSink } from './preview-html-events.js';
import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_TAGS,
  CODE_CLASS,
  CONTENT_DROPPED_TAGS,
  EMPTY_VALUE_KEPT,
  LINK_REL,
  STYLED_TAGS,
  TABLE_ALIGN_PROPERTY,
  TABLE_ALIGN_VALUE,
  URL_ATTRIBUTES,
  VOID_TAGS,
  urlAllowed,
  urlAttributeAllowed,
} from './preview-policy.js';

const escapeText = (text: string): string => {
  if (text.length === 1) {
    // A decoded character reference comes alone: no need for a regular expression.
    return text === '&' ? '&amp;' : text === '<' ? '&lt;' : text === '>' ? '&gt;' : text;
  }
  return /[&<>]/.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;
};

const escapeAttribute = (value: string): string =>
  /[&<>"]/.test(value)
    ? value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    : value;

// CSS declarations, read strictly: `property: value [!important]` separated by `;`. A style
// holding anything this reader does not model (comments, strings, escapes, brackets, at-rules)
// is dropped whole rather than guessed at; only text-align with a plain keyword survives anyway.
const CSS_WHITESPACE = /^[ \t\n\r\f]+|[ \t\n\r\f]+$/g;
const CSS_DECLARATION = /^([^: \t\n\r\f]+)[ \t\n\r\f]*:[ \t\n\r\f]*([^:]*)$/;
const CSS_IMPORTANT = /[ \t\n\r\f]*![ \t\n\r\f]*important$/i;
const CSS_NOT_MODELLED = /[/\\"'(){}@<>[\]]/;

/** The allowed declarations of a th/td style attribute, as `prop:value;…`, or '' for none. */
function filterTableStyle(style: string): string {
  if (CSS_NOT_MODELLED.test(style)) return '';
  let kept = '';
  for (const piece of style.split(';')) {
    const declaration = piece.replace(CSS_WHITESPACE, '');
    if (declaration === '') continue;
    const m = CSS_DECLARATION.exec(declaration);
    if (!m) return ''; // not a declaration: the whole attribute goes
    let value = m[2]!;
    const important = CSS_IMPORTANT.test(value);
    if (important) value = value.replace(CSS_IMPORTANT, '');
    if (value.includes('!')) return '';
    if (m[1] === TABLE_ALIGN_PROPERTY && TABLE_ALIGN_VALUE.test(value)) {
      kept += `${kept ? ';' : ''}${TABLE_ALIGN_PROPERTY}:${value}${important ? ' !important' : ''}`;
    }
  }
  return kept;
}

/** The class attribute of a code element: only the classes CODE_CLASS allows. */
const filterCodeClasses = (classes: string): string =>
  classes
    .split(/\s+/)
    .filter((c) => CODE_CLASS.test(c))
    .join(' ');

/** An allowed attribute's value as it may be written, or null when the attribute is dropped. */
function allowedValue(tag: string, name: string, value: string): string | null {
  if (URL_ATTRIBUTES.has(name) && !urlAttributeAllowed(tag, value)) return null;
  if (tag === 'img' && name === 'src' && !urlAllowed(value, 'img')) return null;
  if (name === 'class') value = filterCodeClasses(value);
  else if (name === 'style') value = STYLED_TAGS.has(tag) ? filterTableStyle(value) : '';
  else return value;
  return value === '' ? null : value;
}

/** ` name="value"…` for the attributes of an allowed element that the policy keeps. */
function writeAttributes(tag: string, allowed: readonly string[], attributes: ReadonlyMap<string, string>): string {
  let out = '';
  let relWritten = false;
  for (const [name, raw] of attributes) {
    if (!allowed.includes(name)) continue;
    if (tag === 'a' && name === 'rel') {
      // Whatever rel the input had, it is replaced in place.
      out += ` rel="${LINK_REL}"`;
      relWritten = true;
      continue;
    }
    if (raw === '') {
      out += Object.hasOwn(EMPTY_VALUE_KEPT, name) ? EMPTY_VALUE_KEPT[name] : '';
      continue;
    }
    const value = allowedValue(tag, name, raw);
    if (value !== null) out += ` ${name}="${escapeAttribute(value)}"`;
  }
  if (tag === 'a' && !relWritten) out += ` rel="${LINK_REL}"`;
  return out;
}

/** What the policy says about one element name: looked up once per tag. */
interface ElementPolicy {
  allowed: boolean;
  /** written `<x />`, no end tag */
  isVoid: boolean;
  /** not allowed, and its content goes with it */
  dropsContent: boolean;
  /** the attributes it may keep (null: none) */
  attributes: readonly string[] | null;
}
const NOT_ALLOWED: ElementPolicy = { allowed: false, isVoid: false, dropsContent: false, attributes: null };
const ELEMENT_POLICY = new Map<string, ElementPolicy>();
for (const tag of ALLOWED_TAGS) {
  ELEMENT_POLICY.set(tag, {
    allowed: true,
    isVoid: VOID_TAGS.has(tag),
    dropsContent: false,
    attributes: ALLOWED_ATTRIBUTES[tag] ?? null,
  });
}
for (const tag of CONTENT_DROPPED_TAGS) ELEMENT_POLICY.set(tag, { ...NOT_ALLOWED, dropsContent: true });

const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();

/** Writes the allowed part of each element event as it comes. */
class AllowListWriter implements ElementEventSink {
  out = '';
  /** The elements started and not yet ended, innermost last, and their policies. */
  private readonly openTags: string[] = [];
  private readonly openPolicies: ElementPolicy[] = [];
  /** Inside an element whose content is dropped: how many elements deep (0 = not inside one). */
  private droppedContentDepth = 0;

  wantsAttributes(tag: string): boolean {
    return this.droppedContentDepth === 0 && (ELEMENT_POLICY.get(tag) ?? NOT_ALLOWED).attributes !== null;
  }

  start(tag: string, attributes: Map<string, string> | null): void {
    if (this.droppedContentDepth > 0) {
      this.droppedContentDepth++;
      return;
    }
    const policy = ELEMENT_POLICY.get(tag) ?? NOT_ALLOWED;
    this.openTags.push(tag);
    this.openPolicies.push(policy);
    if (!policy.allowed) {
      if (policy.dropsContent) this.droppedContentDepth = 1;
      return;
    }
    const written =
      policy.attributes === null ? '' : writeAttributes(tag, policy.attributes, attributes ?? NO_ATTRIBUTES);
    this.out += `<${tag}${written}${policy.isVoid ? ' />' : '>'}`;
  }

  text(text: string): void {
    if (this.droppedContentDepth === 0) this.out += escapeText(text);
  }

  end(tag: string): void {
    if (this.droppedContentDepth > 0 && --this.droppedContentDepth > 0) return;
    const top = this.openTags.length - 1;
    // Only the innermost open element can end; an end that does not match it (a start tag cut
    // off by the end of the input) is ignored. Every written start tag gets its end tag.
    if (top < 0 || this.openTags[top] !== tag) return;
    this.openTags.pop();
    const policy = this.openPolicies.pop()!;
    if (policy.allowed && !policy.isVoid) this.out += `</${tag}>`;
  }

  /** Nothing open, nothing dropped: the writer is as it started. */
  atRest(): boolean {
    return this.openTags.length === 0 && this.droppedContentDepth === 0;
  }
}

/** `html` with everything the preview policy does not allow removed. */
export function sanitizeHtml(html: string): string {
  const writer = new AllowListWriter();
  parseHtmlEvents(html, writer);
  return writer.out;
}

/**
 * The sanitiser over the HTML in `source` from `start` on, read in pieces: reading to `a` then to
 * `b` gives what reading to `b` at once gives. Where a piece leaves it at rest (atRest), the rest
 * of the document is sanitised exactly as if it came alone: the caller may end the stream there
 * and start a new one further on.
 */
export class HtmlSanitizerStream {
  private readonly writer = new AllowListWriter();
  private readonly events: HtmlEventStream;

  constructor(source: string, start: number) {
    this.events = new HtmlEventStream(source, start, this.writer);
  }

  /** Reads the source up to `end` (an index into the whole source). */
  advanceTo(end: number): void {
    this.events.advanceTo(end);
  }

  atRest(): boolean {
    return this.events.atRest() && this.writer.atRest();
  }

  /** Ends the input; the sanitised HTML. */
  end(): string {
    this.events.end();
    return this.writer.out;
  }
}
