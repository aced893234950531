import type Koa from 'koa';
import type Router from '@koa/router';
import { createApp, type AppOptions, type ApiDeps } from '@honeylend/command-api';

/** One route the API answers: a method and a @koa/router path pattern such as `/api/admin/users/:id`. */
export interface MountedRoute {
  method: string;
  path: string;
  /** The `:name` parameters of the path, in order. */
  paramNames: string[];
}

/** `METHOD /path` — how checks name a route in their tables. */
export const routeKey = (route: Pick<MountedRoute, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/**
 * Every route of a Koa app, read from the routers it mounts (`router.routes()` keeps its router on
 * the middleware), so a route added to any router shows up here without anyone listing it.
 * Middleware layers (`router.use`) have no methods and are left out, and so is the HEAD that
 * @koa/router adds beside every GET. A path mounted by two routers (an admin guard in front of an
 * auth route, the members' DELETE handing admin ids on) is one route.
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
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        const route = { method, path, paramNames: layer.paramNames.map((param) => String(param.name)) };
        routes.set(routeKey(route), route);
      }
    }
  }
  return [...routes.values()].sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

/**
 * The API's route table as a running node mounts it: the same `createApp` over the node's own
 * dependencies, with the options the node started with (the development outbox and business date outside production).
 */
export function apiRouteTable(deps: ApiDeps, options: AppOptions = { devOutbox: true, devBusinessDate: true }): MountedRoute[] {
  return routesOf(createApp(deps, options));
}

/** The path with its parameters filled in (each value URL-encoded). */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}
