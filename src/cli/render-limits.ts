// The time, heap and page limits of `platform-core render`: the server's render limits, given by
// --timeout <seconds>, --max-memory-mb <MB> and --max-pages <pages>, whose defaults are the
// settings Settings:RenderTimeoutSeconds, Settings:RenderMemoryMb and Settings:RenderMaxPages
// (same bounds as the settings). A report over the page limit fails (never cut silently).
//
// Settings are only defaults: with all three flags given nothing of the configuration is read, so
// `render` still needs no configuration, and a broken appsettings.json cannot stop it. With a
// flag left out the settings file is read for its default, and a bad file or a bad render
// setting is an error (exit 2) rather than a silent fallback to limits the operator did not set.

import {
  ConfigError,
  loadRenderLimitSettings,
  RENDER_MAX_PAGES,
  RENDER_MEMORY_MB,
  RENDER_TIMEOUT_SECONDS,
  type RenderLimitSettings,
  SCRIPT_MAX_ITEMS,
  SCRIPT_MAX_STEPS,
} from '../config/config.js';
import { JobMemoryError, RenderPageLimitError, JobTimeoutError } from '../srs/render-pool/index.js';
import { one, UsageError, type ParsedArgs } from './args.js';

export interface RenderLimits {
  timeoutSeconds: number;
  maxMemoryMb: number;
  maxPages: number;
  /** The report script's budgets (Settings:ScriptMaxSteps, ScriptMaxItems; no flag). */
  scriptLimits: { maxSteps: number; maxItems: number };
}

/** Plain decimal numbers only: Number() would also take "0x40", "1e3" or " ". */
const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

function timeoutFlag(raw: string): number {
  const { min, max } = RENDER_TIMEOUT_SECONDS;
  const n = Number(raw);
  if (!DECIMAL.test(raw) || n < min || n > max)
    throw new UsageError(`--timeout must be a number of seconds from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  return n;
}

function memoryFlag(raw: string): number {
  const { min, max } = RENDER_MEMORY_MB;
  const n = Number(raw);
  if (!WHOLE.test(raw) || n < min || n > max)
    throw new UsageError(
      `--max-memory-mb must be a whole number of MB from ${min} to ${max} (got ${JSON.stringify(raw)})`,
    );
  return n;
}

function pagesFlag(raw: string): number {
  const { min, max } = RENDER_MAX_PAGES;
  const n = Number(raw);
  if (!WHOLE.test(raw) || n < min || n > max)
    throw new UsageError(
      `--max-pages must be a whole number of pages from ${min} to ${max} (got ${JSON.stringify(raw)})`,
    );
  return n;
}

function settings(env: NodeJS.ProcessEnv, cwd: string): RenderLimitSettings {
  try {
    return loadRenderLimitSettings(env, cwd);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new ConfigError(
      `${err.message} (render takes its default limits from the settings; give --timeout, --max-memory-mb ` +
        `and --max-pages to render without them)`,
    );
  }
}

/** The limits of this render: the flags, else the settings. Bad flags are usage errors. */
export function renderLimits(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): RenderLimits {
  const timeout = one(args, 'timeout');
  const memory = one(args, 'max-memory-mb');
  const pages = one(args, 'max-pages');
  const flags = {
    timeoutSeconds: timeout === undefined ? undefined : timeoutFlag(timeout),
    maxMemoryMb: memory === undefined ? undefined : memoryFlag(memory),
    maxPages: pages === undefined ? undefined : pagesFlag(pages),
  };
  // The script budgets have no flag: they come from the settings, which a render given every
  // flag may not be able to read (then the budgets are their defaults).
  const allFlags =
    flags.timeoutSeconds !== undefined && flags.maxMemoryMb !== undefined && flags.maxPages !== undefined;
  let d: RenderLimitSettings | undefined;
  try {
    d = settings(env, cwd);
  } catch (err) {
    if (!allFlags) throw err;
  }
  return {
    timeoutSeconds: flags.timeoutSeconds ?? (d as RenderLimitSettings).renderTimeoutSeconds,
    maxMemoryMb: flags.maxMemoryMb ?? (d as RenderLimitSettings).renderMemoryMb,
    maxPages: flags.maxPages ?? (d as RenderLimitSettings).renderMaxPages,
    scriptLimits: {
      maxSteps: d?.scriptMaxSteps ?? SCRIPT_MAX_STEPS.fallback,
      maxItems: d?.scriptMaxItems ?? SCRIPT_MAX_ITEMS.fallback,
    },
  };
}

/** The message for a render stopped at a limit: the pool's words (which limit, how much) plus
 *  how to raise it. Undefined for any other error. */
export function limitMessage(err: unknown): string | undefined {
  if (err instanceof JobTimeoutError)
    return `${err.message}; raise the limit with --timeout <seconds> or Settings:RenderTimeoutSeconds`;
  if (err instanceof JobMemoryError)
    return `${err.message}; raise the limit with --max-memory-mb <MB> or Settings:RenderMemoryMb`;
  if (err instanceof RenderPageLimitError)
    return `${err.message}; raise the limit with --max-pages <pages> or Settings:RenderMaxPages`;
  return undefined;
}
