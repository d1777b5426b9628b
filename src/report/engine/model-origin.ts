// Copies of template objects that stand for them: the script's live copies (script-model/live.ts
// makes a new one each time a handler changes the object). Caches keyed by a template object
// (compiled expressions, texts with late totals) look through a copy to its template, so that an
// object a handler changes on every row is not compiled again on every row.

const origins = new WeakMap<object, object>();

/** Records that `copy` stands for `origin` (the origin of a copy of a copy is the first). */
export function recordOrigin(copy: object, origin: object): void {
  origins.set(copy, origins.get(origin) ?? origin);
}

/** The template object `o` is a copy of, or `o` itself. */
export function originOf<T extends object>(o: T): T {
  return (origins.get(o) as T | undefined) ?? o;
}
