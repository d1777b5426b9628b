// Visits every value and key of a parsed JSON document without recursion, so a hostile,
// deeply nested body cannot overflow the stack.

/** The path of the first value (or key) the test accepts, or null. */
export function findInJson(root: unknown, test: (value: unknown) => boolean, rootPath = ''): string | null {
  const stack: Array<[unknown, string]> = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (test(value)) return path;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        const at = path ? `${path}.${k}` : k;
        if (test(k)) return at;
        stack.push([v, at]);
      }
    }
  }
  return null;
}
