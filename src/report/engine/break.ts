// Splitting a band that does not fit on the rest of the page (FastReport's BandBase.Break; bands.ts
// has BreakBand): the part above the break line prints here, the rest on the next page. The break
// line moves up to the top of any object that cannot be split; text objects (CanBreak, the
// default) split between lines; the band's background splits with it.

import type { PreparedText } from './prepared.js';
import type { BandInstance, LaidItem } from './runtime.js';
import { isSideways, positionLines } from './text-layout.js';

const bottomOf = (l: LaidItem): number => l.item.y + l.item.height;

/** How many lines of a text item fit in `space` px of its height (from its top). */
function linesThatFit(t: PreparedText, space: number): number {
  const avail = space - t.padding.top - t.padding.bottom;
  let n = 0;
  if (t.html) {
    let h = 0;
    for (const l of t.html) {
      if (h + l.height > avail + 1e-6) break;
      h += l.height;
      n++;
    }
    return n;
  }
  return Math.max(0, Math.floor((avail + 1e-6) / t.lineHeight));
}

function lineCount(t: PreparedText): number {
  return t.html ? t.html.length : t.lines.length;
}

function canSplit(l: LaidItem, breakLine: number): boolean {
  const it = l.item;
  if (it.kind === 'box') return true;
  if (it.kind !== 'text' || !l.canBreak || isSideways(it.angle)) return false;
  const n = linesThatFit(it, breakLine - it.y);
  return n > 0 && n < lineCount(it);
}

function splitText(l: LaidItem, breakLine: number): [LaidItem, LaidItem] {
  const t = l.item as PreparedText;
  const n = linesThatFit(t, breakLine - t.y);
  const first: PreparedText = { ...t, height: breakLine - t.y };
  const rest: PreparedText = { ...t, y: 0, height: t.height - (breakLine - t.y) };
  if (t.html) {
    first.html = t.html.slice(0, n).map((x) => ({ ...x }));
    rest.html = t.html.slice(n).map((x) => ({ ...x }));
    const need = rest.html.reduce((s, x) => s + x.height, 0) + t.padding.top + t.padding.bottom + 1;
    rest.height = Math.max(rest.height, need);
  } else {
    first.lines = t.lines.slice(0, n).map((x) => ({ ...x }));
    rest.lines = t.lines.slice(n).map((x) => ({ ...x }));
    rest.height = Math.max(rest.height, rest.lines.length * t.lineHeight + t.padding.top + t.padding.bottom + 1);
  }
  positionLines(first);
  positionLines(rest);
  return [
    { ...l, item: first },
    { ...l, item: rest },
  ];
}

/** Splits a band at (at most) `space`; the first part is empty when nothing fits. */
export function splitBand(inst: BandInstance, space: number): { first: BandInstance; rest: BandInstance } {
  let breakLine = Math.min(space, inst.height);
  for (let guard = 0; guard < 10_000; guard++) {
    const blocker = inst.items.find(
      (l) => l.item.y < breakLine - 1e-4 && bottomOf(l) > breakLine + 1e-4 && !canSplit(l, breakLine),
    );
    if (!blocker) break;
    breakLine = Math.min(breakLine, blocker.item.y);
  }
  const first: LaidItem[] = [];
  const rest: LaidItem[] = [];
  let restHeight = inst.height - breakLine;
  for (const l of inst.items) {
    const it = l.item;
    if (bottomOf(l) <= breakLine + 1e-4) {
      first.push(l);
    } else if (it.y < breakLine - 1e-4) {
      if (it.kind === 'text') {
        const [a, b] = splitText(l, breakLine);
        first.push(a);
        rest.push(b);
        restHeight = Math.max(restHeight, b.item.height);
      } else {
        first.push({ ...l, item: { ...it, height: breakLine - it.y } } as LaidItem);
        rest.push({ ...l, item: { ...it, y: 0, height: bottomOf(l) - breakLine } } as LaidItem);
      }
    } else {
      const moved = { ...it, y: it.y - breakLine } as typeof it;
      rest.push({ ...l, item: moved });
    }
  }
  // The band background follows the grown remainder.
  for (const l of rest) if (l.item.kind === 'box' && l.item.name === inst.band.name) l.item.height = restHeight;
  const hasObjects = first.some((l) => !(l.item.kind === 'box' && l.item.name === inst.band.name));
  return {
    first: { ...inst, height: breakLine, items: hasObjects ? first : [] },
    rest: { ...inst, height: restHeight, items: rest },
  };
}
