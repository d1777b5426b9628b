// The text frames' font, line height and colour as classes of the document's <style> instead of
// a style attribute on every frame: a report repeats a few such styles on every text (a third of
// a 10,000-row list's document was one font/colour style written 51,136 times).
//
// Class names are `t` and a counter (never template text) and do not collide with the fixed
// classes of html.ts (.p .i .f .l .r .x .c .b .s .toc). The head is written before the pages,
// so the styles are collected from all pages first (declare); a style met after the head is
// written, or past MAX_TEXT_CLASSES distinct ones, stays an inline style as before.

import { px } from './html-css.js';

/** Distinct styles that get a class; beyond, styles stay inline (a script may colour every row
 *  differently: the head must stay small). */
export const MAX_TEXT_CLASSES = 1024;

export class TextClasses {
  /** font CSS → line height → colour → class name. The keys are the writer's memoised strings
   *  (their hashes are cached), so a lookup builds no string. */
  private readonly byFont = new Map<string, Map<number, Map<string, string>>>();
  private readonly rules: string[] = [];
  private closed = false;

  /** The class of a frame style, made on first sight while the head is not written;
   *  undefined when it has none. `fontCss` is unescaped CSS (it goes into the <style>). */
  classFor(fontCss: string, lineHeight: number, color: string): string | undefined {
    let byHeight = this.byFont.get(fontCss);
    let byColor = byHeight?.get(lineHeight);
    const hit = byColor?.get(color);
    if (hit !== undefined || this.closed || this.rules.length >= MAX_TEXT_CLASSES) return hit;
    if (!byHeight) this.byFont.set(fontCss, (byHeight = new Map()));
    if (!byColor) byHeight.set(lineHeight, (byColor = new Map()));
    const name = `t${this.rules.length}`;
    byColor.set(color, name);
    // The values are made by the exporter from numbers and its font tables; a `<` could still
    // end the <style> element, so it is written as a CSS escape.
    this.rules.push(`.${name}{${fontCss};line-height:${px(lineHeight)};color:${color}}`.replace(/</g, '\\3c '));
    return name;
  }

  /** The rules for the head; no class is made after this. */
  css(): string {
    this.closed = true;
    return this.rules.join('\n');
  }
}
