// A tiny argv parser: positional words, `--flag value` (repeatable) and boolean `--flag`.
export interface ParsedArgs {
  positional: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
}

export function parseArgs(argv: string[], booleanFlags: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (booleanFlags.includes(name)) {
        flags.add(name);
        continue;
      }
      const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, [...(options.get(name) ?? []), value]);
    } else {
      positional.push(a);
    }
  }
  return { positional, options, flags };
}

export class UsageError extends Error {}

export const one = (args: ParsedArgs, name: string): string | undefined => args.options.get(name)?.at(-1);
export const many = (args: ParsedArgs, name: string): string[] => args.options.get(name) ?? [];
