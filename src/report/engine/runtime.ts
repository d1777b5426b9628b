// Runtime state: what the engine tracks per band while the report runs, and the per-print state
// of a report object (its bounds and appearance after styles, data and highlight; FastReport
// changes the object itself and restores it afterwards, the engine works on a copy).

import type { TypedValue } from '../expr/index.js';
import type { BandModel, BorderModel, Duplicates, FillModel, ReportObjectModel } from '../frx/model.js';
import type { FontSpec } from '../text/index.js';
import type { PreparedHyperlink, PreparedItem } from './prepared.js';
import type { TextMeasure } from './text-layout.js';

export interface BandRt {
  rowNo: number;
  absRowNo: number;
  isFirstRow: boolean;
  isLastRow: boolean;
  /** Printed again on a new page (RepeatOnEveryPage). */
  repeated: boolean;
  /** Did not fit: must break (or be printed as it is) next time. */
  mustBreak: boolean;
  checkFreeSpace: boolean;
  reprintOffset: number;
  /** The deepest DataBand of its page keeps the report summary with its last row. */
  keepSummary: boolean;
}

export function newBandRt(): BandRt {
  return {
    rowNo: 0,
    absRowNo: 0,
    isFirstRow: false,
    isLastRow: false,
    repeated: false,
    mustBreak: false,
    checkFreeSpace: true,
    reprintOffset: 0,
    keepSummary: false,
  };
}

/** One report object while its band is printed. */
export interface RtObject {
  model: ReportObjectModel;
  left: number;
  top: number;
  width: number;
  height: number;
  visible: boolean;
  fill: FillModel;
  border: BorderModel;
  font?: FontSpec;
  textFill?: FillModel;
  /** TextObject: the text after expressions; `value` the last expression's value. */
  text?: string;
  value?: TypedValue;
  /** The text holds [Page#]/[TotalPages#], filled in after layout. */
  macros?: boolean;
  measure?: TextMeasure;
  /** PictureObject: image bytes; CheckBoxObject: checked. */
  bytes?: Uint8Array | null;
  checked?: boolean;
  hyperlink?: PreparedHyperlink;
  bookmark?: string;
}

/** A band laid out: its size and its items relative to the band's top-left corner. */
export interface BandInstance {
  band: BandModel;
  /** The band's own left (Left + column offset); the page position adds margins and CurX. */
  left: number;
  width: number;
  height: number;
  items: LaidItem[];
  /** Break lines: objects that may be split (TextObject.CanBreak). */
  canBreak: boolean;
}

export interface LaidItem {
  item: PreparedItem;
  /** TextObject.Duplicates (post-processed per page). */
  duplicates?: Duplicates;
  /** For splitting text when a band breaks across pages. */
  measure?: TextMeasure;
  canBreak: boolean;
}
