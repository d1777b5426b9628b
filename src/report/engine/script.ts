// The report's script while the report runs: its fields are names and its methods functions of
// the report's expressions (`[total]`, `[GroupRank()]`), and its handlers run when their band
// prints (BeforePrint, AfterPrint) and when the report starts and finishes. The script keeps its
// state across the passes of a double-pass report, as FastReport's does: a first pass may
// collect what the final pass prints. A handler that fails (or reaches what the interpreter
// does not give scripts yet) is skipped with one warning naming it; the report goes on.

import type { Resolved } from '../expr/index.js';
import type { Value } from '../expr/values.js';
import { TemplateError, type ReportWarnings } from '../errors.js';
import type { ReportModel } from '../frx/model.js';
import { parseScript } from '../script/parser.js';
import { ScriptError, type ScriptHost, ScriptRuntime } from '../script/interpreter.js';
import type { Passes } from './passes.js';
import type { ReportScope, ScriptNames } from './scope.js';

/** Runs a handler of the script (no-op without one). */
export interface ScriptEvents {
  fire(owner: string, events: Readonly<Record<string, string>>, event: string): void;
}

export const NO_SCRIPT: ScriptEvents = { fire: () => {} };

class ReportScript implements ScriptNames, ScriptEvents {
  private readonly failed = new Set<string>();

  constructor(
    private readonly runtime: ScriptRuntime,
    private readonly warnings: ReportWarnings,
  ) {}

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

  fire(owner: string, events: Readonly<Record<string, string>>, event: string): void {
    const handler = events[event];
    if (!handler || this.failed.has(handler)) return;
    if (!this.runtime.hasMethod(handler)) {
      this.fail(handler, `${owner}.${event}: the script has no runnable method ${handler}; it is skipped`);
      return;
    }
    try {
      this.runtime.guard(() => this.runtime.call(handler, [null, null]));
    } catch (e) {
      if (!(e instanceof ScriptError)) throw e;
      // A script that runs away ends the render; one that fails loses its handler.
      if (e.limit) throw new TemplateError(e.message, `${owner}.${event}`);
      this.fail(handler, `${owner}.${event}: ${e.message}; the handler is skipped from here on`);
    }
  }

  private fail(handler: string, message: string): void {
    this.failed.add(handler);
    this.warnings.add(message);
  }
}

/** The report's script, ready to run (its fields initialised), or undefined without one. */
export function startScript(
  report: ReportModel,
  scope: ReportScope,
  passes: Passes,
  warnings: ReportWarnings,
): (ScriptNames & ScriptEvents) | undefined {
  if (report.scriptText === null || report.scriptLanguage.toLowerCase() !== 'csharp') return undefined;
  let program: ReturnType<typeof parseScript>;
  try {
    program = parseScript(report.scriptText);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    warnings.add(`ScriptText cannot be read (${message}); the report runs without its script`);
    return undefined;
  }
  for (const w of program.warnings) warnings.add(w);
  const host: ScriptHost = {
    convertNulls: report.convertNulls,
    formatter: scope.formatter,
    resolve: (name) => {
      switch (name) {
        case 'Engine.FinalPass':
          return { value: passes.finalPass, type: 'System.Boolean' };
        case 'Engine.FirstPass':
          return { value: !passes.finalPass, type: 'System.Boolean' };
        case 'Engine.DoublePass':
          return { value: passes.doublePass, type: 'System.Boolean' };
      }
      return scope.resolve(name);
    },
    // Report objects are not yet reachable from scripts: assignments to them fail the handler.
    assign: () => false,
  };
  const runtime = new ScriptRuntime(program, host);
  try {
    runtime.guard(() => runtime.init());
  } catch (e) {
    if (!(e instanceof ScriptError)) throw e;
    if (e.limit) throw new TemplateError(e.message, 'ScriptText');
    warnings.add(`The script's fields cannot be set up (${e.message}); the report runs without its script`);
    return undefined;
  }
  return new ReportScript(runtime, warnings);
}
