// One pass or two. A report needs the total page count in a first pass only when a value laid out
// depends on it. Two kinds of use do not: the physical macro [TotalPages#] as a whole bracket of
// a text (filled in after layout, postprocess.ts), and the logical [PageNofM]/[TotalPages] in a
// fixed-size text of a page header, footer or overlay, bands that never break (late-totals.ts
// fills them in after layout, with the logical numbers the single pass recorded). Such a report runs one pass only when
// nothing else could tell a single pass from the final pass of two: PrintOn without LastPage or
// SinglePage, GetBookmarkPage, Engine.FinalPass/FirstPass, a script with fields of its own …;
// in doubt it keeps the two passes, whose output the single pass reproduces byte for byte.

import { allBands } from '../frx/load.js';
import type { ReportModel, TextObjectModel } from '../frx/model.js';
import { parseTemplate } from '../expr/template.js';
import { parseScript } from '../script/parser.js';

export interface PassPlan {
  doublePass: boolean;
  /** Texts whose [PageNofM]/[TotalPages] are filled in after a single pass. */
  lateTotals: ReadonlySet<TextObjectModel>;
}

/** Brackets whose value is only known after layout; filled in later when the text allows. */
export const LATE_TOTALS = ['PageNofM', 'TotalPages'] as const;

const USES_TOTAL = /\bTotalPages\b|\bPageNofM\b/;
/** What else reads the page count or tells the passes apart. */
const PASS_SENSITIVE = /TotalPages|PageNofM|FinalPass|FirstPass|DoublePass|Bookmark/;
/** In a script: state that outlives a pass (fields are checked apart) or reads the passes. */
const SCRIPT_SENSITIVE = /TotalPages|PageNofM|Pass|Bookmark|Engine|Parameter|Variable|static/;
const PRINT_ON_ALL = ['FirstPage', 'LastPage', 'OddPages', 'EvenPages', 'SinglePage'];
const EMPTY: ReadonlySet<TextObjectModel> = new Set();

const plans = new WeakMap<ReportModel, PassPlan>();

export function passPlan(report: ReportModel): PassPlan {
  let plan = plans.get(report);
  if (!plan) plans.set(report, (plan = makePlan(report)));
  return plan;
}

/** The expression sources of a text as the engine evaluates them (none without expressions). */
function expressionSources(o: { text: string; brackets: string; allowExpressions: boolean }): string[] {
  if (!o.allowExpressions) return [];
  return parseTemplate(o.text, o.brackets).flatMap((p) => (p.kind === 'expr' ? [p.source.trim()] : []));
}

const isTextLike = (o: Record<string, unknown>): o is Record<string, unknown> & TextObjectModel =>
  typeof o.text === 'string' && typeof o.brackets === 'string' && typeof o.allowExpressions === 'boolean';

/** Today's rule, less whole [TotalPages#] macros: a text, highlight or visibility reads a total. */
function usesTotals(report: ReportModel): boolean {
  for (const page of report.pages) {
    for (const band of allBands(page)) {
      if (USES_TOTAL.test(band.visibleExpression)) return true;
      for (const o of band.objects) {
        if (USES_TOTAL.test(o.visibleExpression)) return true;
        if (o.type !== 'TextObject') continue;
        if (o.highlight.some((h) => USES_TOTAL.test(h.expression))) return true;
        if (
          o.allowExpressions
            ? expressionSources(o).some((s) => s !== 'TotalPages#' && USES_TOTAL.test(s))
            : USES_TOTAL.test(o.text)
        )
          return true;
      }
    }
  }
  return false;
}

/** A text whose logical totals can wait: its size and everything else about it is fixed. */
function lateCandidate(o: TextObjectModel): boolean {
  return (
    !o.cellular &&
    o.allowExpressions &&
    !o.canGrow &&
    !o.canShrink &&
    !o.autoWidth &&
    o.autoShrink === 'None' &&
    !o.growToBottom &&
    o.processAt === 'Default' &&
    o.duplicates === 'Show' &&
    o.highlight.length === 0 &&
    Object.keys(o.events).length === 0 &&
    expressionSources(o).some((s) => (LATE_TOTALS as readonly string[]).includes(s))
  );
}

function makePlan(report: ReportModel): PassPlan {
  if (report.doublePass) return { doublePass: true, lateTotals: EMPTY };
  if (!usesTotals(report)) return { doublePass: false, lateTotals: EMPTY };
  const late = new Set<TextObjectModel>();
  for (const page of report.pages)
    for (const band of [page.pageHeader, page.pageFooter, page.overlay])
      for (const o of band?.objects ?? []) if (o.type === 'TextObject' && lateCandidate(o)) late.add(o);
  return singlePassSafe(report, late)
    ? { doublePass: false, lateTotals: late }
    : { doublePass: true, lateTotals: EMPTY };
}

function scriptSafe(report: ReportModel, namesLate: (s: string) => boolean): boolean {
  if (report.scriptText === null || report.scriptLanguage.toLowerCase() !== 'csharp') return true;
  // A handler changing a late text could move or resize it.
  if (SCRIPT_SENSITIVE.test(report.scriptText) || namesLate(report.scriptText)) return false;
  try {
    return parseScript(report.scriptText).fields.length === 0;
  } catch {
    return false;
  }
}

/** Walks every value of the model: nothing but the texts' macros and the late texts' totals may
 *  read the page count or the passes, every PrintOn holds the flags a last page is tested
 *  against, and no other value names a late text (reading its Text would see it unfilled). */
function singlePassSafe(report: ReportModel, late: ReadonlySet<TextObjectModel>): boolean {
  const names = new Set([...late].map((o) => o.name));
  const namesLate = (s: string): boolean => {
    if (names.size === 0) return false;
    for (const w of s.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) if (names.has(w)) return true;
    return false;
  };
  if (!scriptSafe(report, namesLate)) return false;
  const textSafe = (o: TextObjectModel, text: string): boolean =>
    expressionSources({ ...o, text }).every(
      (s) =>
        s === 'TotalPages#' ||
        s === 'Page#' ||
        (late.has(o) && (LATE_TOTALS as readonly string[]).includes(s)) ||
        (!PASS_SENSITIVE.test(s) && !namesLate(s)),
    ) &&
    (o.allowExpressions || !PASS_SENSITIVE.test(text));
  const seen = new Set<object>();
  const visit = (v: unknown, key: string, owner: Record<string, unknown> | undefined): boolean => {
    if (typeof v === 'string') {
      if (key === 'scriptText' || key === 'name' || key === 'Name' || key.startsWith('ReportInfo.')) return true;
      if (owner && isTextLike(owner) && (key === 'text' || key === 'Text')) return textSafe(owner, v);
      return !PASS_SENSITIVE.test(v) && !namesLate(v);
    }
    // ReportInfo (name, description …) is shown as it is, never evaluated.
    if (typeof v !== 'object' || v === null || seen.has(v) || key === 'reportInfo') return true;
    seen.add(v);
    if (Array.isArray(v)) {
      if (key === 'printOn' && !PRINT_ON_ALL.every((f) => (v as unknown[]).includes(f))) return false;
      return v.every((x) => visit(x, key, owner));
    }
    if (ArrayBuffer.isView(v)) return true;
    if (v instanceof Map) return [...v.values()].every((x) => visit(x, key, owner));
    const rec = v as Record<string, unknown>;
    // A raw attribute map belongs to the object that holds it (its Text is the object's text).
    const next = key === 'raw' ? owner : rec;
    for (const [k, x] of Object.entries(rec)) if (!visit(x, k, next)) return false;
    return true;
  };
  return visit(report, '', undefined);
}
