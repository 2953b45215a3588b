import { matchRoutes, type RouteObject } from 'react-router';

let table: RouteObject[] = [];

/** Called once by the app with its route tree, so the navigation can tell which paths exist. */
export function setRouteTable(routes: RouteObject[]): void {
  table = routes;
}

/**
 * Whether the console has a page at `path` (not the 404 catch-all): a menu entry for a page
 * this console does not have yet (its service is still to come) is left out of the navigation
 * instead of leading to "page not found".
 */
export function hasPage(path: string): boolean {
  const matches = matchRoutes(table, path);
  const last = matches?.[matches.length - 1];
  return !!last && last.route.path !== '*';
}
