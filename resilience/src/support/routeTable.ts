import { createApp, routesOf, type AppOptions, type ApiDeps, type MountedRoute } from '@honeylend/command-api';

// The walk over the mounted routers lives in command-api (the API reference is made from it too).
export { routesOf, routeKey, type MountedRoute } from '@honeylend/command-api';

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
