// The data a template receives (data.json), as a tree of native disclosure widgets: keyboard
// and screen-reader friendly without any script of ours.
const MAX_ITEMS = 200;

function Leaf({ value }: { value: unknown }) {
  if (value === null) return <span class="v-null">null</span>;
  if (typeof value === 'string') return <span class="v-string">"{value}"</span>;
  return <span class="v-other">{String(value)}</span>;
}

export function DataTree({ name, value, open = false }: { name: string; value: unknown; open?: boolean }) {
  if (value === null || typeof value !== 'object') {
    return (
      <div class="tree-leaf">
        <span class="tree-key">{name}</span>: <Leaf value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${value.length} rows]` : `{${entries.length} fields}`;
  return (
    <details open={open}>
      <summary>
        <span class="tree-key">{name}</span> <span class="tree-count">{summary}</span>
      </summary>
      <div class="tree-children">
        {entries.slice(0, MAX_ITEMS).map(([k, v]) => (
          <DataTree key={k} name={k} value={v} />
        ))}
        {entries.length > MAX_ITEMS && <p class="hint">…and {entries.length - MAX_ITEMS} more</p>}
      </div>
    </details>
  );
}
