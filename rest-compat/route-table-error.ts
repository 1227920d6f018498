/**
 * A route table that does not fit the supergraph (a duplicate route, a missing root field, an invalid operation):
 * thrown while the table is compiled or documented, so the server stops at start rather than at the first call.
 * @example throw new RouteTableError('route resolveEnsName: operation does not select ensResolve')
 */
export class RouteTableError extends Error {
  override name = 'RouteTableError';
}
