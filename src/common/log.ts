/**
 * The event log every layer writes to: ids, reasons, sizes, durations; never terminal content,
 * file contents or secrets. A `vscode.LogOutputChannel` fits. A component that reports no errors
 * of its own takes `Pick<Log, 'info' | 'warn'>`.
 */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
