// The report's objects and bands as its script has changed them. FastReport's handlers change
// the template objects themselves, and every band saves its objects' state before it prints and
// restores it afterwards (BandBase.SaveState/RestoreState): a change made while a band prints
// (its BeforePrint, its objects' handlers) lasts for that print, a change made elsewhere (a
// group header's handler changing the footer's text, StartReport) lasts until changed again. The
// engine never writes to a model, so the changes are kept here, by model, and `live(model)`
// gives the model with them applied (a copy, made once per set of changes).

import type { BandModel, ReportObjectModel } from '../../frx/model.js';
import { recordOrigin } from '../model-origin.js';
import type { RtBand, RtObject } from '../runtime.js';

type Model = ReportObjectModel | BandModel;
type Changes = Map<string, unknown>;

/** The changes of some models at one moment (restored when their band has printed). */
export type SavedChanges = ReadonlyMap<Model, Changes | undefined>;

const RT_BAND_KEYS = new Set(['visible', 'height', 'canGrow', 'canShrink', 'fill', 'border']);

export class LiveObjects {
  private readonly changes = new Map<Model, Changes>();
  private readonly copies = new Map<Model, Model>();
  /** Objects printing now, after their data (AfterData changes the printed copy too). */
  private readonly printing = new Map<Model, RtObject>();

  /** A property as the script sees it: changed, or the template's. */
  read(m: Model, key: string): unknown {
    const c = this.changes.get(m);
    if (c?.has(key)) return c.get(key);
    return (m as unknown as Record<string, unknown>)[key];
  }

  /** The run-time copy of an object while it prints (after its data), if it is printing. */
  printed(m: Model): RtObject | undefined {
    return this.printing.get(m);
  }

  write(m: Model, key: string, v: unknown): void {
    let c = this.changes.get(m);
    if (!c) this.changes.set(m, (c = new Map()));
    c.set(key, v);
    this.copies.delete(m);
    const rt = this.printing.get(m) as unknown as Record<string, unknown> | undefined;
    if (rt && key in rt) {
      rt[key] = v;
      if (key !== 'visible') delete rt.measure;
    }
  }

  /** The model with the script's changes (the model itself when there are none). */
  live<T extends Model>(m: T): T {
    const c = this.changes.get(m);
    if (!c) return m;
    let copy = this.copies.get(m);
    if (!copy) {
      copy = { ...m, ...Object.fromEntries(c) } as Model;
      this.copies.set(m, copy);
      recordOrigin(copy, m);
    }
    return copy as T;
  }

  /** A band's run-time properties with the script's changes. */
  applyToBand(rt: RtBand): void {
    const c = this.changes.get(rt.model);
    if (!c) return;
    const target = rt as unknown as Record<string, unknown>;
    for (const [k, v] of c) if (RT_BAND_KEYS.has(k)) target[k] = v;
  }

  /** Runs `fn` with the object's printed copy reachable (its AfterData handlers). */
  whilePrinting<T>(m: Model, rt: RtObject, fn: () => T): T {
    this.printing.set(m, rt);
    try {
      return fn();
    } finally {
      this.printing.delete(m);
    }
  }

  save(models: readonly Model[]): SavedChanges {
    const saved = new Map<Model, Changes | undefined>();
    if (this.changes.size === 0) {
      for (const m of models) saved.set(m, undefined);
      return saved;
    }
    for (const m of models) {
      const c = this.changes.get(m);
      saved.set(m, c ? new Map(c) : undefined);
    }
    return saved;
  }

  restore(saved: SavedChanges): void {
    for (const [m, c] of saved) {
      const now = this.changes.get(m);
      if (now === undefined && c === undefined) continue;
      if (c) this.changes.set(m, c);
      else this.changes.delete(m);
      this.copies.delete(m);
    }
  }
}
