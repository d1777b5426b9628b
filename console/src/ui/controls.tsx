// Form controls with their labels, a confirmation dialog and a copy button.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

interface InputProps {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  type?: 'text' | 'password' | 'number' | 'datetime-local' | 'search';
  required?: boolean;
  pattern?: string;
  min?: number;
  max?: number;
  maxLength?: number;
  minLength?: number;
  autocomplete?: string;
}

export function TextField({ label, value, onInput, hint, type = 'text', ...rest }: InputProps) {
  const id = useId();
  // Preact types an input's attributes by its `type`; these are valid for every type used here.
  const attributes = { type, ...rest } as { type: 'text' };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        value={value}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...attributes}
      />
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** A modal question with a default of "no": Escape and the cancel button close it. */
export function Confirm(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  const titleId = useId();
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={props.onCancel} onClose={props.onCancel}>
      <h2 id={titleId}>{props.title}</h2>
      <div class="dialog-body">{props.children}</div>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel} autofocus>
          Cancel
        </button>
        <button type="button" class={props.danger ? 'danger' : ''} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" class="secondary" onClick={copy} aria-live="polite">
      {copied ? 'Copied' : label}
    </button>
  );
}

/** "in 23 h 5 min" / "5 min ago": how long until (or since) an instant. */
export function relativeTime(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  const abs = Math.abs(ms);
  const min = Math.round(abs / 60_000);
  const text = min < 1 ? 'less than a minute' : min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

export function formatTime(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso.endsWith('Z') || /[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
