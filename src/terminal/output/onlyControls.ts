/** Whether a piece of terminal output draws nothing: control sequences only. */

/**
 * Whether `text` holds nothing but terminal control: ESC sequences (CSI `ESC [ … final`, OSC up to
 * BEL, two-byte `ESC x`) and C0 controls other than line ends. Such text draws nothing.
 */
export function onlyControls(text: string): boolean {
  return text.replace(/\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[ -~])|[\x00-\x09\x0b\x0c\x0e-\x1f]/g, '') === '';
}
