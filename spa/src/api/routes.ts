import { routes, type RouteName, type RouteTypes } from "./routes.gen";

export { routes, type RouteName, type RouteTypes };

/** The `{param}` names in a route's public path ("gameId" for `/rest/pp/ppToken/{gameId}`). */
export type RouteParam<N extends RouteName> = (typeof routes)[N]["params"][number];

/** The routes whose path has no `{param}`, and those that have some. */
export type StaticRoute = { [N in RouteName]: [RouteParam<N>] extends [never] ? N : never }[RouteName];
export type TemplatedRoute = Exclude<RouteName, StaticRoute>;

/** No argument for a route without parameters; an object with every one of them otherwise. */
export type PathArgs<N extends RouteName> = N extends StaticRoute ? [] : [params: Record<RouteParam<N>, string | number>];

const PARAM = /\{(\w+)\}/g;

/**
 * The path the browser calls for a catalogue route, by its name in contracts/catalogue.py:
 * `pathOf("balance")`, `pathOf("pragmaticLaunch", { gameId })`. Each parameter is one
 * URL-encoded segment. A name the catalogue does not have, or a missing parameter, is a
 * type error: every endpoint path of the SPA comes from here (the lint refuses a written one).
 */
export function pathOf(name: StaticRoute): string;
export function pathOf<N extends TemplatedRoute>(name: N, params: Record<RouteParam<N>, string | number>): string;
export function pathOf<N extends RouteName>(name: N, ...args: PathArgs<N>): string;
export function pathOf(name: RouteName, params: Partial<Record<string, string | number>> = {}): string {
  return routes[name].path.replace(PARAM, (_, key: string) => encodeURIComponent(String(params[key])));
}
