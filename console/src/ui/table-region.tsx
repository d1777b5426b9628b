// A table in a region of its own that scrolls sideways when wider than the screen. Keyboard users
// reach it by Tab to scroll it (axe: scrollable-region-focusable).
import type { ComponentChildren } from 'preact';

export function TableRegion({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled by keyboard
    <section class="table-wrap" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
