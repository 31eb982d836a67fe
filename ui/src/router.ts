import { createSignal } from 'solid-js';

/** Where the shell lands when the hash is empty or names nothing. */
export const DEFAULT_ROUTE = '/products';
export const LOGIN_ROUTE = '/login';

/** The hash without its leading '#', e.g. '/tasks?status=DRAFT'. */
function readHash(): string {
  const raw = window.location.hash.replace(/^#/, '');
  return raw === '' || raw === '/' ? DEFAULT_ROUTE : raw;
}

const [route, setRoute] = createSignal(readHash());

// One listener for the whole app: the hash is the single source of truth, so back/forward,
// typed URLs and navigate() all go through the same path.
window.addEventListener('hashchange', () => setRoute(readHash()));

/** Full route including any query part; reactive. */
export const currentRoute = route;

/** Route path without the query part, for matching pages; reactive. */
export function currentPath(): string {
  const full = route();
  const q = full.indexOf('?');
  return q === -1 ? full : full.slice(0, q);
}

export function navigate(to: string): void {
  const target = to.startsWith('/') ? to : `/${to}`;
  if (window.location.hash === `#${target}`) {
    // Same hash fires no hashchange; keep the signal honest anyway.
    setRoute(target);
    return;
  }
  window.location.hash = target;
}

export function hrefFor(path: string): string {
  return `#${path}`;
}
