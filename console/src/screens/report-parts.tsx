// Parts of the Reports screen: a param's form field (labelled by the definition, else by its
// name in words) and the HTML preview, scaled down to the width it has.
import { useEffect, useRef, useState } from 'preact/hooks';

export interface Param {
  name: string;
  type: string;
  default: string | null;
  label: string | null;
}

/** `order_id` → "Order id": what a form calls a param the definition gives no label. */
export function humanName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
}

export const paramLabel = (p: Param): string => p.label ?? humanName(p.name);

const TYPE_HINTS: Record<string, string> = {
  int: 'A whole number',
  decimal: 'A number',
  date: 'A date',
};

export function ParamField({ param, value, onChange }: { param: Param; value: string; onChange: (v: string) => void }) {
  const id = `param-${param.name}`;
  const label = paramLabel(param);
  if (param.type === 'bool')
    return (
      <label class="check field" for={id}>
        <input
          id={id}
          type="checkbox"
          checked={/^(true|1|yes|on)$/i.test(value)}
          onChange={(e) => onChange(String((e.target as HTMLInputElement).checked))}
        />
        {label}
      </label>
    );
  const type = param.type === 'int' || param.type === 'decimal' ? 'number' : param.type === 'date' ? 'date' : 'text';
  // Preact types an input's attributes by its `type`; these are valid for each of the three.
  const attributes = { type, step: param.type === 'decimal' ? 'any' : undefined } as { type: 'number' };
  const hint = TYPE_HINTS[param.type] ?? (param.default === null ? 'Optional' : undefined);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        {...attributes}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(e) => onChange((e.target as HTMLInputElement).value)}
      />
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** The width of the report's widest page, in CSS pixels (the HTML export sizes each page). */
function pageWidth(html: string): number | null {
  let widest: number | null = null;
  for (const m of html.matchAll(/<div class="p" data-page="\d+" style="width:([\d.]+)px/g)) {
    const w = Number(m[1]);
    if (Number.isFinite(w) && (widest === null || w > widest)) widest = w;
  }
  return widest;
}

/** Room the export leaves around a page, so that its shadow shows (a few pixels each side). */
const PAGE_GUTTER_PX = 16;

/** The zoom that fits a page of `page` px into a frame `frame` px wide: never enlarged. */
export function fitZoom(page: number | null, frame: number): number {
  if (page === null || frame <= 0 || page + PAGE_GUTTER_PX <= frame) return 1;
  return Math.max(0.1, Math.floor(((frame - PAGE_GUTTER_PX) / page) * 1000) / 1000);
}

/** The HTML report in a sandboxed frame (no script runs in it), zoomed out to fit its width: the
 *  frame is laid out as wide as the page needs and scaled down as a whole, so the report's own
 *  document is shown as the server made it. */
export function ReportPreview({ html, title }: { html: string; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const zoom = fitZoom(pageWidth(html), size.width);
  const scaled =
    zoom < 1
      ? {
          width: `${size.width / zoom}px`,
          height: `${size.height / zoom}px`,
          transform: `scale(${zoom})`,
          transformOrigin: '0 0',
        }
      : undefined;
  return (
    <div class="report-preview" ref={box} data-zoom={String(zoom)}>
      <iframe title={title} sandbox="" srcdoc={html} style={scaled} />
    </div>
  );
}
