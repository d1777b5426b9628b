// markdown-it's own GFM table rule (markdown-table-rows.ts delegates a table's head to it). The
// file is public through the package's "./*" export; @types/markdown-it does not describe it.
declare module 'markdown-it/lib/rules_block/table.mjs' {
  import type { StateBlock } from 'markdown-it';

  export default function table(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean;
}
