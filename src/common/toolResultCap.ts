/**
 * The byte cap of one tool result and how answers name a byte size (plain Node, no `vscode`
 * import): the figure every model-facing text states is made from the constant here.
 */

/** Cap of one tool result's JSON or text part (UTF-8 bytes), independent of dsh.terminal.maxReadBytes. */
export const TOOL_OUTPUT_CAP_BYTES = 256 * 1024;

/** A byte count as text: `8 MiB`, `512 KiB` (whole units only) or `100 bytes`. */
export function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
