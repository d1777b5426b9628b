// The syntax tree of a report script (C#'s `class ReportScript`): its fields and methods, and
// the statements of the methods. Expressions are the expression engine's nodes (expr/ast.ts),
// parsed in script mode (expression-parser.ts).

import type { Node } from '../expr/ast.js';

interface At {
  /** Offset in the script text. */
  readonly pos: number;
}

export interface LocalDeclarator {
  readonly name: string;
  readonly init: Node | null;
}

export interface SwitchSection {
  /** Case labels (null for `default`). */
  readonly labels: readonly (Node | null)[];
  readonly body: readonly Stmt[];
}

export interface CatchClause {
  /** The exception type (null: any), and the variable naming it. */
  readonly type: string | null;
  readonly name: string | null;
  readonly body: Stmt;
}

export type Stmt =
  | (At & { readonly k: 'block'; readonly body: readonly Stmt[] })
  | (At & { readonly k: 'local'; readonly type: string; readonly decls: readonly LocalDeclarator[] })
  | (At & { readonly k: 'expr'; readonly x: Node })
  | (At & { readonly k: 'if'; readonly cond: Node; readonly then: Stmt; readonly else: Stmt | null })
  | (At & { readonly k: 'while'; readonly cond: Node; readonly body: Stmt })
  | (At & { readonly k: 'do'; readonly body: Stmt; readonly cond: Node })
  | (At & {
      readonly k: 'for';
      readonly init: readonly Stmt[];
      readonly cond: Node | null;
      readonly step: readonly Node[];
      readonly body: Stmt;
    })
  | (At & {
      readonly k: 'foreach';
      readonly type: string;
      readonly name: string;
      readonly of: Node;
      readonly body: Stmt;
    })
  | (At & { readonly k: 'switch'; readonly x: Node; readonly sections: readonly SwitchSection[] })
  | (At & { readonly k: 'break' | 'continue' | 'empty' })
  | (At & { readonly k: 'return' | 'throw'; readonly x: Node | null })
  | (At & {
      readonly k: 'try';
      readonly body: Stmt;
      readonly catches: readonly CatchClause[];
      readonly fin: Stmt | null;
    });

export interface Parameter {
  readonly type: string;
  readonly name: string;
  readonly init: Node | null;
}

export interface FieldDecl {
  readonly name: string;
  readonly type: string;
  readonly init: Node | null;
  readonly line: number;
  readonly isStatic: boolean;
}

export interface MethodDecl {
  readonly name: string;
  readonly returnType: string;
  readonly params: readonly Parameter[];
  /** Null when the method was refused (see `refused`). */
  readonly body: Stmt | null;
  readonly line: number;
  /** Why the method cannot run (a construct a report script may not use, or a syntax error). */
  readonly refused: string | null;
}

/** A parsed script: the members of `ReportScript`, and one warning per construct left out. */
export interface ScriptProgram {
  readonly fields: readonly FieldDecl[];
  readonly methods: readonly MethodDecl[];
  readonly warnings: readonly string[];
  /** 1-based line of an offset in the script text. */
  lineOf(pos: number): number;
}
