/**
 * The event log every layer writes to: ids, reasons, sizes, durations; never terminal content,
 * file contents or secrets. A `vscode.LogOutputChannel` fits. Every component takes this one type,
 * whichever levels it uses.
 */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A log that drops everything. */
export const SILENT_LOG: Log = { info: () => undefined, warn: () => undefined, error: () => undefined };
