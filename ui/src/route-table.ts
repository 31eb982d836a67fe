import { currentPath, currentRoute } from './router';

/** The names of a pattern's `:parameters`: '/tasks/:taskId/edit' → 'taskId'. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<P extends string> = { readonly [K in ParamNames<P>]: string };

export interface RouteDef<P extends string> {
  pattern: P;
  /** A parameter's shape; a path whose parameter does not fit it is not this route. */
  shapes: Partial<Record<ParamNames<P>, RegExp>>;
}

function route<P extends string>(pattern: P, shapes: Partial<Record<ParamNames<P>, RegExp>> = {}): RouteDef<P> {
  return { pattern, shapes };
}

const DIGITS = /^\d+$/;

/**
 * Every page below a navigation entry (routes.ts), with its typed parameters: a page reads
 * `matchRoute(ROUTES.task)?.taskId` instead of picking the URL apart itself.
 */
export const ROUTES = {
  product: route('/products/:goodsId', { goodsId: DIGITS }),
  pddGoods: route('/pdd/:pddGoodsId', { pddGoodsId: DIGITS }),
  taskNew: route('/tasks/new'),
  task: route('/tasks/:taskId', { taskId: /^(?!new$)/ }),
  taskEdit: route('/tasks/:taskId/edit'),
  deviceScreen: route('/devices/:deviceId/screen'),
} as const;

/** The route's decoded parameters when `path` (the current one by default) is it, else null; reactive. */
export function matchRoute<P extends string>(def: RouteDef<P>, path: string = currentPath()): RouteParams<P> | null {
  const want = def.pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const seg = got[i] ?? '';
    if (!part.startsWith(':')) {
      if (part !== seg) return null;
      continue;
    }
    if (seg === '') return null;
    let value: string;
    try {
      value = decodeURIComponent(seg);
    } catch {
      return null; // a malformed %-escape names no page
    }
    const shape = (def.shapes as Record<string, RegExp | undefined>)[part.slice(1)];
    if (shape && !shape.test(value)) return null;
    params[part.slice(1)] = value;
  }
  return params as RouteParams<P>;
}

/** The path of a route with its parameters filled in (encoded). */
export function pathOf<P extends string>(def: RouteDef<P>, params: RouteParams<P>): string {
  return def.pattern.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent((params as Record<string, string>)[name] ?? ''),
  );
}

/** The query part of the current route (`#/tasks?status=DRAFT`); reactive. Filters live there. */
export function routeQuery(): URLSearchParams {
  const full = currentRoute();
  const i = full.indexOf('?');
  return new URLSearchParams(i === -1 ? '' : full.slice(i + 1));
}
