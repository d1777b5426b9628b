/** Whether the arrays and objects of JSON text nest deeper than `max` (brackets inside strings
 *  do not count). One pass over the text, no parsing: it runs before a parser that accepts any
 *  depth, so deep input is refused before anything recursive sees it. Invalid text is left to
 *  the parser. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
