/**
 * A wait's `untilListening`: polls the sockets the session's processes listen on
 * (sessionProcesses.ts) until one answers: the port asked for, or with `true` any port none of them
 * listened on when the wait began. Each poll reads off this thread (proc/listeningSockets.ts) and
 * the next starts only once it is in. Plain Node, no `vscode` import.
 */
import type { ListeningSocket } from '../../proc/listeningSockets';

/** Time between two looks at the session's sockets (ms). */
export const PORT_POLL_MS = 200;

/** Watches a session's listening sockets for one port or any new one (see the module comment). */
export class PortWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  /**
   * @param want a port (1..65535), or `true` for any port not listened on at {@link start}.
   * @param read the sockets the session listens on now (undefined where they cannot be read).
   */
  constructor(
    readonly want: number | true,
    private readonly read: () => Promise<ListeningSocket[] | undefined>,
  ) {}

  /**
   * Starts polling; calls `found` once with the first socket that answers, then stops. A port that
   * already listens answers at the first look. Failed reads are looked at again at the next poll.
   */
  start(found: (socket: ListeningSocket) => void): void {
    let baseline: Set<number> | undefined;
    const look = async () => {
      if (this.stopped) return;
      const sockets = (await this.read().catch(() => undefined)) ?? [];
      if (this.stopped) return;
      if (this.want === true && baseline === undefined) {
        baseline = new Set(sockets.map((s) => s.port));
      } else {
        const hit = sockets.find((s) => (this.want === true ? !baseline!.has(s.port) : s.port === this.want));
        if (hit) {
          this.stop();
          found(hit);
          return;
        }
      }
      this.timer = setTimeout(() => void look(), PORT_POLL_MS);
    };
    void look();
  }

  /** Stops polling; `found` is not called after it. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
