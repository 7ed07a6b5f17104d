import { useEffect, useState } from 'preact/hooks';

/**
 * The page's place in its URL fragment (`#/case/<id>`, `#/compare`), so the back button, a
 * reload and a link to a case work, from `file://` too. Parts are URI-encoded.
 */
export function useRoute(): string[] {
  const [route, setRoute] = useState(parseHash);
  useEffect(() => {
    const changed = () => setRoute(parseHash());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

function parseHash(): string[] {
  return location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part));
}

export function href(...parts: string[]): string {
  return `#/${parts.map((part) => encodeURIComponent(part)).join('/')}`;
}

export function go(...parts: string[]): void {
  location.hash = href(...parts);
}
