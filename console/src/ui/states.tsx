// The states every list and panel shows: loading (a placeholder of the final size, so nothing
// jumps when the data arrives), failed (in words, with a retry), empty (what to do next), and
// the progress bar of anything that takes longer than 300 ms.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { explain } from '../words';

export function Loading({ rows = 3, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div class="skeleton" role="status" aria-live="polite">
      <span class="visually-hidden">{label}…</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} class="skeleton-row" />
      ))}
    </div>
  );
}

export function Failed({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="notice error" role="alert">
      <p>{explain(error)}</p>
      {retry && (
        <button type="button" class="secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <p>{children}</p>}
    </div>
  );
}

/** An indeterminate bar, shown only once `active` has lasted 300 ms (quick actions do not flash). */
export function Progress({ active, label }: { active: boolean; label: string }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const t = setTimeout(() => setShown(true), 300);
    return () => clearTimeout(t);
  }, [active]);
  return (
    <div class={`progress${shown ? ' shown' : ''}`} role="progressbar" aria-label={label} aria-hidden={!shown}>
      <div class="progress-bar" />
    </div>
  );
}

export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="field-error" role="alert">
      {explain(error)}
    </p>
  );
}
