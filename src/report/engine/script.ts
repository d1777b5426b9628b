// The report's script while the report runs: its fields are names and its methods functions of
// the report's expressions (`[total]`, `[GroupRank()]`); its handlers run at FastReport's moments
// (script-events.ts) and reach the report through the script model (script-model/): report
// objects and bands by name, Report, Engine, data sources, dialog controls, Color and the other
// drawing types. The script keeps its state across the passes of a double-pass report, as
// FastReport's does: a first pass may collect what the final pass prints. A handler that fails
// is skipped from then on with one warning naming it; one that runs away ends the render.

import type { Resolved } from '../expr/index.js';
import type { Value } from '../expr/values.js';
import { TemplateError } from '../errors.js';
import { allBands } from '../frx/load.js';
import type { BandModel, MatrixObjectModel, ReportObjectModel, TableObjectModel } from '../frx/model.js';
import { parseScript } from '../script/parser.js';
import { ScriptError, type ScriptHost, type ScriptLimits, ScriptRuntime } from '../script/interpreter.js';
import type { EngineContext } from './context.js';
import type { DialogForms } from './dialogs.js';
import type { RtBand, RtObject } from './runtime.js';
import type { ScriptNames } from './scope.js';
import type { LaidOutTable, MatrixAdd, ScriptEvents, TableBuild } from './script-events.js';
import { EventSlot } from '../script/delegates.js';
import { ControlProxy, FormProxy } from './script-model/dialogs.js';
import { LiveObjects } from './script-model/live.js';
import { ObjectProxy } from './script-model/objects.js';
import { EngineProxy, ReportProxy } from './script-model/report.js';
import { MatrixProxy, ResultTableProxy, TableProxy } from './script-model/tables.js';
import { ColorStatics, constructValue, enumMember } from './script-model/values.js';
import { HostObject } from '../expr/values.js';
import { fromResolved } from '../expr/scope-values.js';
import { ScriptList } from '../script/collections.js';
import { getMember } from '../expr/instance-members.js';

type Model = ReportObjectModel | BandModel;

/** The objects a band's print may change: its own, and the cells of its tables and theirs. */
function modelsOf(band: BandModel): Model[] {
  const out: Model[] = [band];
  for (const o of band.objects) {
    out.push(o);
    if (o.type === 'TableObject' || o.type === 'MatrixObject')
      for (const row of o.cells) for (const cell of row) out.push(cell, ...cell.objects);
  }
  return out;
}

class ReportScript implements ScriptNames, ScriptEvents {
  private readonly failed = new Set<string>();
  private readonly state = new LiveObjects();
  private readonly names = new Map<string, Value>();
  private models: Map<string, Model> | undefined;
  private readonly bandModels = new WeakMap<BandModel, Model[]>();
  private readonly builds = new Map<TableObjectModel, TableBuild>();
  private readonly resultEvents = new WeakMap<TableBuild, EventSlot>();
  private readonly matrixAdds = new Map<MatrixObjectModel, MatrixAdd>();
  readonly runtime: ScriptRuntime;

  constructor(
    private readonly e: EngineContext,
    private readonly dialogs: DialogForms,
    program: ReturnType<typeof parseScript>,
    limits: ScriptLimits,
  ) {
    const host: ScriptHost = {
      convertNulls: e.report.convertNulls,
      formatter: e.scope.formatter,
      resolve: (name) => this.resolve(name),
      assign: (segs, v) => this.assign(segs, v),
      construct: constructValue,
    };
    this.runtime = new ScriptRuntime(program, host, limits);
  }

  // --- Names ------------------------------------------------------------------------------

  private resolve(name: string): Resolved | undefined {
    const r = this.e.scope.resolve(name);
    if (r) return r;
    const v = this.named(name);
    return v === undefined ? undefined : { value: v };
  }

  /** The script model's object of a name (cached), or undefined. */
  private named(name: string): Value | undefined {
    const cached = this.names.get(name);
    if (cached !== undefined) return cached;
    const v = this.make(name);
    if (v !== undefined && v instanceof HostObject) this.names.set(name, v);
    return v;
  }

  private make(name: string): Value | undefined {
    switch (name) {
      case 'Report':
        return new ReportProxy(this.e);
      case 'Engine':
        return new EngineProxy(this.e);
      case 'Color':
      case 'System.Drawing.Color':
        return new ColorStatics();
    }
    const member = enumMember(name);
    if (member !== undefined) return member;
    const form = this.dialogs.forms.get(name);
    if (form) return new FormProxy(form);
    const control = this.dialogs.controls.get(name);
    if (control) return new ControlProxy(control, this.dialogs.now, this.runtime.budget);
    const model = this.modelByName(name);
    if (!model) return undefined;
    if (model.type === 'TableObject')
      return new TableProxy(
        model,
        this.state,
        () => this.builds.get(model),
        (build) => this.eventsOf(build),
      );
    if (model.type === 'MatrixObject') return new MatrixProxy(model, this.state, () => this.matrixAdds.get(model));
    return new ObjectProxy(model, this.state);
  }

  private modelByName(name: string): Model | undefined {
    if (!this.models) {
      const m = new Map<string, Model>();
      const add = (x: Model): void => {
        if (x.name !== '' && !m.has(x.name)) m.set(x.name, x);
      };
      for (const page of this.e.report.pages) for (const band of allBands(page)) for (const x of modelsOf(band)) add(x);
      this.models = m;
    }
    return this.models.get(name);
  }

  /** `Text1.Text = v`, `Engine.CurY = v`, `Table1.Border.Lines = v`: the object of the first
   *  segment, its members down to the last, which is set. */
  private assign(segs: readonly string[], v: Value): boolean {
    if (segs.length < 2) return false;
    let obj = this.named(segs[0] as string);
    if (!(obj instanceof HostObject)) return false;
    for (const seg of segs.slice(1, -1)) {
      const next = getMember(this.runtime.ctx, obj, seg);
      if (!(next instanceof HostObject)) return false;
      obj = next;
    }
    obj.setMember(segs[segs.length - 1] as string, v);
    return true;
  }

  // --- ScriptNames (texts) -----------------------------------------------------------------

  field(name: string): Resolved | undefined {
    const v = this.runtime.field(name);
    return v === undefined ? undefined : { value: v };
  }

  hasMethod(name: string): boolean {
    return this.runtime.hasMethod(name);
  }

  call(name: string, args: readonly unknown[]): Resolved {
    try {
      return { value: this.runtime.guard(() => this.runtime.call(name, args as Value[])) };
    } catch (e) {
      if (e instanceof ScriptError) throw new TemplateError(e.message);
      throw e;
    }
  }

  callWithList(name: string, values: readonly Resolved[]): Resolved {
    const list = (): Value => new ScriptList(this.runtime.budget, 'object', values.map(fromResolved));
    try {
      return { value: this.runtime.guard(() => this.runtime.call(name, [list()])) };
    } catch (e) {
      if (e instanceof ScriptError) throw new TemplateError(e.message);
      throw e;
    }
  }

  // --- ScriptEvents ----------------------------------------------------------------------------

  fire(owner: string, events: Readonly<Record<string, string>>, event: string): void {
    const handler = events[event];
    if (!handler || this.failed.has(handler)) return;
    if (!this.runtime.hasMethod(handler)) {
      this.fail(handler, `${owner}.${event}: the script has no runnable method ${handler}; it is skipped`);
      return;
    }
    this.runHandler(`${owner}.${event}`, handler, [null, null]);
  }

  /** Runs a handler; one that fails is skipped from then on, one that runs away ends the render. */
  private runHandler(where: string, handler: string, args: Value[]): void {
    if (this.failed.has(handler)) return;
    try {
      this.runtime.guard(() => this.runtime.call(handler, args));
    } catch (e) {
      if (!(e instanceof ScriptError)) throw e;
      if (e.limit) throw new TemplateError(e.message, where);
      this.fail(handler, `${where}: ${e.message}; the handler is skipped from here on`);
    }
  }

  aroundBand<T>(band: BandModel, print: () => T): T {
    let models = this.bandModels.get(band);
    if (!models) this.bandModels.set(band, (models = modelsOf(band)));
    const saved = this.state.save(models);
    this.fire(band.name, band.events, 'BeforePrintEvent');
    let out: T;
    try {
      out = print();
    } catch (err) {
      this.state.restore(saved);
      throw err;
    }
    this.fire(band.name, band.events, 'AfterPrintEvent');
    for (const o of band.objects) this.fire(o.name, o.events, 'AfterPrintEvent');
    this.state.restore(saved);
    return out;
  }

  live<T extends ReportObjectModel>(o: T): T {
    return this.state.live(o);
  }

  applyToBand(rt: RtBand): void {
    this.state.applyToBand(rt);
  }

  beforePrint(o: ReportObjectModel, rt?: RtObject): void {
    if (!o.events.BeforePrintEvent) return;
    if (rt) this.state.whilePrinting(o, rt, () => this.fire(o.name, o.events, 'BeforePrintEvent'));
    else this.fire(o.name, o.events, 'BeforePrintEvent');
  }

  afterData(o: ReportObjectModel, rt: RtObject): void {
    if (!o.events.AfterDataEvent) return;
    this.state.whilePrinting(o, rt, () => this.fire(o.name, o.events, 'AfterDataEvent'));
  }

  manualBuild(o: TableObjectModel, build: TableBuild): boolean {
    const handler = o.manualBuildEvent;
    if (!this.runtime.hasMethod(handler) && !this.failed.has(handler)) return false;
    this.builds.set(o, build);
    try {
      this.fire(o.name, { ManualBuildEvent: handler }, 'ManualBuildEvent');
    } finally {
      this.builds.delete(o);
    }
    return true;
  }

  private eventsOf(build: TableBuild): EventSlot {
    let slot = this.resultEvents.get(build);
    if (!slot) this.resultEvents.set(build, (slot = new EventSlot('AfterCalcBounds')));
    return slot;
  }

  afterCalcBounds(o: TableObjectModel, build: TableBuild, laid: LaidOutTable): void {
    const slot = this.resultEvents.get(build);
    if (!slot) return;
    const sender = new ResultTableProxy(laid, slot);
    for (const method of slot.methods) this.runHandler(`${o.name}.ResultTable.AfterCalcBounds`, method, [sender, null]);
  }

  matrixBuild(o: MatrixObjectModel, add: MatrixAdd): boolean {
    const handler = o.manualBuildEvent;
    if (!this.runtime.hasMethod(handler) && !this.failed.has(handler)) return false;
    this.matrixAdds.set(o, add);
    try {
      this.fire(o.name, { ManualBuildEvent: handler }, 'ManualBuildEvent');
    } finally {
      this.matrixAdds.delete(o);
    }
    return true;
  }

  private fail(handler: string, message: string): void {
    this.failed.add(handler);
    this.e.warnings.add(message);
  }
}

/** The report's script, ready to run (its fields initialised), or undefined without one. */
export function startScript(
  e: EngineContext,
  dialogs: DialogForms,
  limits: ScriptLimits,
): (ScriptNames & ScriptEvents) | undefined {
  const report = e.report;
  if (report.scriptText === null || report.scriptLanguage.toLowerCase() !== 'csharp') return undefined;
  let program: ReturnType<typeof parseScript>;
  try {
    program = parseScript(report.scriptText);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    e.warnings.add(`ScriptText cannot be read (${message}); the report runs without its script`);
    return undefined;
  }
  for (const w of program.warnings) e.warnings.add(w);
  const script = new ReportScript(e, dialogs, program, limits);
  const runtime = script.runtime;
  try {
    runtime.guard(() => runtime.init());
  } catch (err) {
    if (!(err instanceof ScriptError)) throw err;
    if (err.limit) throw new TemplateError(err.message, 'ScriptText');
    e.warnings.add(`The script's fields cannot be set up (${err.message}); the report runs without its script`);
    return undefined;
  }
  return script;
}
