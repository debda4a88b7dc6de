/**
 * Recognising what a terminal emulator sends on its own, as opposed to what a person types: the
 * answers to queries a program printed (xterm ctlseqs: "Send Device Attributes", "Device Status
 * Report", "Request Mode", "Window manipulation" reports, "Request Status String", OSC colour
 * queries) and the focus and mouse reports a program asked for. Plain Node, no `vscode` import.
 */

/** One report (xterm ctlseqs), as the emulator sends it: 7-bit CSI, OSC and DCS forms. */
const REPORT = new RegExp(
  [
    '\\x1b\\[[?>=][\\d;]*c', // DA1, DA2, DA3 answers: CSI ? Ps c, CSI > Ps ; Ps ; Ps c
    '\\x1b\\[\\??\\d+;\\d+R', // cursor position report (CPR, DECXCPR)
    '\\x1b\\[\\??\\d+(?:;\\d+)*n', // device status report answers
    '\\x1b\\[\\??\\d+;\\d+\\$y', // mode report (DECRPM)
    '\\x1b\\[\\d+(?:;\\d+)+t', // window and text-area size reports
    '\\x1b\\[[IO]', // focus in / out (mode 1004)
    '\\x1b\\[<\\d+;\\d+;\\d+[Mm]', // SGR mouse report (mode 1006)
    '\\x1b\\[M[\\s\\S]{3}', // X10 / normal mouse report: CSI M Cb Cx Cy
    '\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)', // OSC answers (colour queries)
    '\\x1bP[^\\x1b]*\\x1b\\\\', // DCS answers (DECRQSS, XTGETTCAP)
    '\\x1b\\[\\?\\d+u', // progressive keyboard enhancement flags (kitty protocol) answer
  ].join('|'),
  'y',
);

/**
 * True when `data` (what the panel terminal hands to `Pseudoterminal.handleInput`) consists only of
 * terminal reports, so no person typed it: an emulator answering a query the program printed, or
 * reporting focus or the mouse. Keys a person types (text, Enter, Ctrl-C, arrows `ESC [ A`,
 * modified arrows `ESC [ 1 ; 5 C`, function keys) are not reports; a modified F3 (`ESC [ 1 ; 2 R`)
 * reads as a cursor position report, as it does to every program (xterm ctlseqs notes the clash).
 */
export function isTerminalReport(data: string): boolean {
  if (data.length === 0) return false;
  let at = 0;
  while (at < data.length) {
    REPORT.lastIndex = at;
    const m = REPORT.exec(data);
    if (!m) return false;
    at += m[0].length;
  }
  return true;
}
