// "Did you mean …?" for names typed by hand (template names in report URLs): the Levenshtein
// distance (insertions, deletions, substitutions) and the few closest candidates.

/** The Levenshtein distance of a and b, giving up (returning limit + 1) past `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * Up to `max` candidates close to `name`, closest first (ties alphabetically). Close: at most a
 * third of the name's length apart (at least 2 edits), or equal but for case, so a short name
 * does not suggest everything.
 */
export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  return candidates
    .map((c) => ({ c, d: c.toLowerCase() === lower ? 0 : editDistance(name, c, limit) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0))
    .slice(0, max)
    .map((x) => x.c);
}
