import type Koa from 'koa';
import type Router from '@koa/router';
import { endpointOf, type EndpointDoc } from './endpoint.js';

/** One route the API answers: a method and a @koa/router path pattern such as `/api/admin/users/:id`. */
export interface MountedRoute {
  method: string;
  path: string;
  /** The `:name` parameters of the path, in order. */
  paramNames: string[];
  /**
   * The documentation of the endpoints that answer it, in mounting order: one, or several when
   * routers share a path (an admin guard in front of an auth route, the members' DELETE handing
   * admin ids on to the admin accounts' route). Empty when no endpoint documents it.
   */
  endpoints: EndpointDoc[];
}

/** `METHOD /path` — how checks and the reference name a route. */
export const routeKey = (route: Pick<MountedRoute, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/**
 * Every route of a Koa app, read from the routers it mounts (`router.routes()` and the app's
 * prefix-gated mount keep their router on the middleware), so a route added to any router shows
 * up here without anyone listing it. Middleware layers (`router.use`) have no methods and are left
 * out, and so is the HEAD that @koa/router adds beside every GET. A path mounted by two routers is
 * one route, with both endpoints' documentation.
 */
export function routesOf(app: Koa): MountedRoute[] {
  const routes = new Map<string, MountedRoute>();
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: Router }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') continue;
      // A trailing slash from `router.get('/')` under a prefix answers the prefix itself too.
      const path = layer.path.length > 1 ? layer.path.replace(/\/$/, '') : layer.path;
      const documented = layer.stack.map(endpointOf).filter((doc): doc is EndpointDoc => doc !== undefined);
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        const key = routeKey({ method, path });
        const route = routes.get(key) ?? { method, path, paramNames: layer.paramNames.map((param) => String(param.name)), endpoints: [] };
        route.endpoints.push(...documented);
        routes.set(key, route);
      }
    }
  }
  return [...routes.values()].sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}
