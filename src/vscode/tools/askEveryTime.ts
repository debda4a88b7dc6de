/**
 * Confirmations that must be asked every time: a tool marks the confirmation messages it returns
 * from `prepareInvocation` (a session outside the agent sandbox), and the MCP approval then asks
 * the person with "Allow Once" or "Deny" only, whatever "Allow … Until the Window Closes" or
 * `dsh.mcp.autoApprove` say for the client. Plain Node: the mark is a WeakSet of the objects.
 */
const marked = new WeakSet<object>();

/** Marks `confirmation` as one the person must answer each time; returns it. */
export function askEveryTime<T extends object>(confirmation: T): T {
  marked.add(confirmation);
  return confirmation;
}

/** True when `confirmation` was marked by {@link askEveryTime}. */
export function mustAskEveryTime(confirmation: object | undefined): boolean {
  return confirmation !== undefined && marked.has(confirmation);
}
