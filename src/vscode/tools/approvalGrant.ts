/**
 * Who let a tool call run when its confirmation was not shown in chat: the MCP approval marks the
 * invocation options it hands a tool when an MCP client was allowed for its connection or in
 * `dsh.mcp.autoApprove` (the person did not answer this call). Keyed by the options object the
 * connection makes, which nothing a model writes can reach. Plain Node: a WeakMap.
 */
const granted = new WeakMap<object, 'client'>();

/** Marks `options` as allowed by the MCP client's standing allowance; returns it. */
export function grantByClient<T extends object>(options: T): T {
  granted.set(options, 'client');
  return options;
}

/** Marks `to` as `from` is marked (for options copied on their way to the tool); returns `to`. */
export function carryGrant<T extends object>(from: object, to: T): T {
  const grant = granted.get(from);
  if (grant) granted.set(to, grant);
  return to;
}

/** `client` when `options` was marked by {@link grantByClient}. */
export function grantOf(options: object): 'client' | undefined {
  return granted.get(options);
}
