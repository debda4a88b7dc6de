/**
 * Consents the person gave to one tool call, each for one subject (a real path to read outside the
 * workspace, a session outside the agent sandbox): recorded when the tool's `prepareInvocation`
 * returns the confirmation that asks for it (VS Code, or the MCP approval dialog, calls `invoke`
 * only when the person allowed it), consumed once by the `invoke` of the call with the same key
 * (the call's input, serialised: {@link callKey}) and the same subject. A call that never showed
 * the confirmation (another tool object, another input) finds none and is refused. Consents expire
 * after `ttlMs` (a declined call leaves its consent unused). Plain Node.
 */
export class CallConsents {
  private readonly consents = new Map<string, number[]>();

  /** @param ttlMs how long a recorded consent waits for its call, in ms (the person may take a while to answer). */
  constructor(private readonly ttlMs: number) {}

  /** Record that the confirmation for `subject` in the call keyed `key` is being asked; `now` in ms since the epoch. */
  record(key: string, subject: string, now = Date.now()): void {
    const k = this.key(key, subject);
    this.prune(now);
    this.consents.set(k, [...(this.consents.get(k) ?? []), now + this.ttlMs]);
  }

  /** Use one consent for `subject` in the call keyed `key`. @returns false when there is none (never asked, used, expired). */
  consume(key: string, subject: string, now = Date.now()): boolean {
    this.prune(now);
    const k = this.key(key, subject);
    const list = this.consents.get(k);
    if (!list || list.length === 0) return false;
    list.shift();
    if (list.length === 0) this.consents.delete(k);
    return true;
  }

  private key(key: string, subject: string): string {
    return `${key}\u0000${subject}`;
  }

  private prune(now: number): void {
    for (const [k, list] of this.consents) {
      const live = list.filter((t) => t > now);
      if (live.length === 0) this.consents.delete(k);
      else this.consents.set(k, live);
    }
  }
}

/** The key of one call for {@link CallConsents}: its input object, serialised with sorted top-level keys. */
export function callKey(input: object): string {
  const o = input as Record<string, unknown>;
  return JSON.stringify(o, Object.keys(o).sort());
}
