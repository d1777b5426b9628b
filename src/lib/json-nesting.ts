// JSON nesting, checked before parsing. Shared by the service's client-JSON parser (json-text.ts)
// and the report library's JSON data sources (src/report/data/json-source.ts): it imports nothing,
// and it is the one module of the service that src/report imports (see src/report/README.md).

/** Whether the arrays and objects of JSON text nest deeper than `max` (brackets inside strings
 *  do not count). Read without parsing: it runs before a parser that accepts any
 *  depth, so deep input is refused before anything recursive sees it. Invalid text is left to
 *  the parser. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  // Nesting deeper than `max` needs more than `max` opening brackets: counting them with
  // indexOf (native, fast) settles most texts without walking them character by character.
  if (!occursMoreThan(text, OPENING, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const OPENING = ['[', '{'] as const;

/** Whether the characters of `chars` occur more than `max` times in `text`, together. */
function occursMoreThan(text: string, chars: readonly string[], max: number): boolean {
  let count = 0;
  for (const ch of chars) {
    for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) if (++count > max) return true;
  }
  return false;
}
