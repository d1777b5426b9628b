// Loading data for a screen: the state a screen renders (loading, failed, loaded) and a reload.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Async<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; data: T };

export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): [Async<T>, () => void] {
  const [value, setValue] = useState<Async<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // The caller names what the load depends on (deps); the load itself is read from a ref.
  useEffect(() => {
    const abort = new AbortController();
    setValue((v) => (v.state === 'loaded' ? v : { state: 'loading' }));
    loadRef.current(abort.signal).then(
      (data) => abort.signal.aborted || setValue({ state: 'loaded', data }),
      (error) => abort.signal.aborted || setValue({ state: 'failed', error }),
    );
    return () => abort.abort();
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return [value, reload];
}

/** Runs an action (a button's): busy while it runs, its error kept for display. */
export function useAction<A extends unknown[], R>(
  act: (...args: A) => Promise<R>,
): { run: (...args: A) => Promise<R | undefined>; busy: boolean; error: unknown; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await act(...args);
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clear: () => setError(null) };
}
