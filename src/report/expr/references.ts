// The names an expression refers to (CompiledExpression.references): bracket references, bare
// chains, and the string arguments of the lookups that take a name (IsNull, Report.Get…Value).

import type { Node } from './ast.js';

/** The references of a tree, depth-first, left to right, without duplicates. */
export function collectReferences(root: Node): string[] {
  const out = new Set<string>();
  const stack: Node[] = [root];
  const order: string[] = [];
  const add = (s: string) => {
    if (!out.has(s)) {
      out.add(s);
      order.push(s);
    }
  };
  // Depth-first, left to right (children pushed in reverse).
  while (stack.length) {
    const n = stack.pop()!;
    const kids: (Node | null)[] = [];
    switch (n.k) {
      case 'ref':
        add(n.name);
        break;
      case 'chain':
        add(n.names[n.names.length - 1]!);
        break;
      case 'name':
        if (!n.alt) add(n.name);
        kids.push(n.alt);
        break;
      case 'member':
        kids.push(n.obj);
        break;
      case 'mcall':
        kids.push(n.obj, ...n.args);
        break;
      case 'call':
      case 'scall': {
        const isLookup = (n.k === 'call' && n.fn === 'IsNull') || (n.k === 'scall' && n.type === 'Report');
        const a0 = n.args[0];
        if (isLookup && a0?.k === 'lit' && typeof a0.v === 'string') add(a0.v);
        kids.push(...n.args);
        break;
      }
      case 'index':
        kids.push(n.obj, n.index);
        break;
      case 'unary':
      case 'cast':
        kids.push(n.x);
        break;
      case 'bin':
        kids.push(n.a, n.b);
        break;
      case 'cond':
        kids.push(n.c, n.a, n.b);
        break;
      case 'new':
        kids.push(...n.args);
        break;
      case 'assign':
        kids.push(n.target, n.value);
        break;
      case 'incdec':
        kids.push(n.target);
        break;
      case 'ucall':
        kids.push(...n.args);
        break;
      case 'snew':
        kids.push(...n.args, n.length, ...(n.init ?? []));
        break;
      case 'typetest':
        kids.push(n.x);
        break;
    }
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i]) stack.push(kids[i]!);
  }
  return order;
}
