// The on/off character styles a run of text carries, the same six in HtmlTags text
// (html-tags.ts) and in RTF (../rtf): bold, italic, underline, strikeout and the two baselines.

export interface RunFlags {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  sub: boolean;
  sup: boolean;
}

/** Whether two runs have the same flags (runs of one style merge). */
export function sameFlags(a: RunFlags, b: RunFlags): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.strike === b.strike &&
    a.sub === b.sub &&
    a.sup === b.sup
  );
}
