// Routes live in the URL fragment (#/tokens, #/accounts/alice): the page is always /admin/, so
// the server needs no fallback route and relative URLs work behind any path prefix.
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** The path segments after `#/`, decoded. */
  parts: string[];
}

function current(): Route {
  const path = location.hash.replace(/^#\/?/, '');
  return { parts: path === '' ? [] : path.split('/').map((p) => decodeURIComponent(p)) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const onChange = () => setRoute(current());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export const href = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join('/')}`;

export function navigate(...parts: string[]): void {
  location.hash = href(...parts);
}
