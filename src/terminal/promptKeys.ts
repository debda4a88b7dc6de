/**
 * Keys pressed where bash's line editor (readline) reads them: at the shell's prompt or
 * continuation prompt with line editing on. There many keys put text on the command line that is
 * not in the keys themselves: a line of the shell's history (Up, Down, Ctrl-P, Ctrl-N, Ctrl-R,
 * Ctrl-S, PageUp, PageDown, vi's `k` after Escape), text cut earlier (Ctrl-Y), a completion (Tab),
 * the last word of an earlier command (Escape `.`, Escape `_`), or whatever the person's
 * ~/.inputrc binds a key to. A confirmation that shows the keys by name cannot show that text, so
 * a send is refused when a key would run the line (Enter, Ctrl-M, Ctrl-J, Ctrl-O) while the line
 * may hold such text. Keys whose effect on the line is the keys themselves (typed characters,
 * cursor motion, deletion) may be followed by Enter; Ctrl-C empties the line.
 *
 * The rule knows what bash binds these keys to by default (emacs and vi insert mode); a printable
 * character the person bound to a macro in ~/.inputrc is not known to it.
 */
import { TerminalError } from './errors';
import { isCharacterKey } from './input';

/** Keys that make readline run the command line (accept-line; Ctrl-O: operate-and-get-next). */
export const LINE_RUNNING_KEYS: readonly string[] = ['Enter', 'Ctrl-M', 'Ctrl-J', 'Ctrl-O'];

/**
 * Keys whose effect on the command line the keys themselves show (bash's default bindings): they
 * move the cursor, delete, transpose or clear the screen, in emacs and in vi insert mode (where a
 * few insert themselves literally). Besides these, every single printable character and Space.
 */
const SHOWN_EDIT_KEYS: ReadonlySet<string> = new Set([
  'Space',
  'Left',
  'Right',
  'Home',
  'End',
  'Backspace',
  'Delete',
  'Ctrl-A',
  'Ctrl-B',
  'Ctrl-D',
  'Ctrl-E',
  'Ctrl-F',
  'Ctrl-H',
  'Ctrl-K',
  'Ctrl-L',
  'Ctrl-T',
  'Ctrl-U',
  'Ctrl-W',
]);

/** The key that abandons the line (SIGINT): bash discards it and prompts again with an empty one. */
const EMPTIES_LINE = 'Ctrl-C';

/** True when `key` (a canonical name, see input.ts) changes the command line only as its name shows. */
function shownInFull(key: string): boolean {
  return isCharacterKey(key) || SHOWN_EDIT_KEYS.has(key);
}

/** What a key that is not shown in full does to the command line at bash's prompt, by default. */
export function unshownKeyEffect(key: string): string {
  switch (key) {
    case 'Up':
    case 'Down':
    case 'Ctrl-P':
    case 'Ctrl-N':
    case 'PageUp':
    case 'PageDown':
      return "puts a line from the shell's history on the command line";
    case 'Ctrl-R':
    case 'Ctrl-S':
      return "searches the shell's history and puts the line it finds on the command line";
    case 'Ctrl-Y':
      return 'inserts text cut earlier (the kill ring)';
    case 'Tab':
    case 'Shift-Tab':
      return 'completes a word from file names, commands or history';
    case 'Escape':
      return "starts a Meta key (Escape `.` inserts the last word of an earlier command) or vi's command mode (`k` recalls history)";
    case 'Ctrl-O':
      return "runs the line and puts the next line of the shell's history on the next prompt";
    case 'Ctrl-X':
      return 'starts a key sequence (Ctrl-X Ctrl-E edits the line in an editor and runs it)';
    case 'Ctrl-V':
    case 'Ctrl-Q':
      return 'inserts the next key as a character';
    default:
      return "does what the shell's line editor binds it to";
  }
}

/**
 * Why keys pressed at bash's prompt may not be pressed (indexes are into the send's keys):
 * - `runs-unshown`: `run` would run the line while it may hold text put there by `by`, pressed
 *   before it in this send (`by.index`) or by an earlier send at this prompt (`by.index` undefined);
 * - `next-line`: Ctrl-O (`run`) runs the line and puts a line of history on the next prompt;
 * - `after-line`: `by` follows a key that ended the line in this send (`run`: Enter, Ctrl-M,
 *   Ctrl-J or Ctrl-C), so it reaches the next prompt or the command started, which this send
 *   cannot follow.
 */
export type PromptKeysRefusal =
  | { kind: 'runs-unshown'; run: { key: string; index: number }; by: { key: string; index: number | undefined } }
  | { kind: 'next-line'; run: { key: string; index: number } }
  | { kind: 'after-line'; run: { key: string; index: number }; by: { key: string; index: number } };

/**
 * The keys pressed at the shell's current prompt by earlier sends, which the command line holds:
 * the first MAX_LINE_KEYS_KEPT of them, how many more there were, and the first of them that put
 * text on the line no confirmation shows (undefined when all are shown in full).
 */
export interface LineKeys {
  keys: string[];
  more: number;
  unshown?: string;
}

/** How many keys pressed at one prompt are kept (and shown) by name; later ones are counted. */
export const MAX_LINE_KEYS_KEPT = 256;

/** What keys do at bash's prompt: a refusal, or what the line holds after them. */
export interface PromptKeysVerdict {
  /** Set when the send must be refused (nothing pressed). */
  refusal?: PromptKeysRefusal;
  /**
   * The keys pressed at this prompt after the send (the earlier ones, then this send's). Undefined
   * when refused, or after a key that ended the line (Enter, Ctrl-M, Ctrl-J, Ctrl-C): the later
   * keys then reach another prompt or the command started.
   */
  line?: LineKeys;
}

/**
 * Judges canonical key names (see input.ts `checkKeys`) pressed where bash's line editor reads
 * them, after `earlier`: the keys earlier sends pressed at this same prompt (its line was empty
 * when it was shown). Refused (see PromptKeysRefusal): a line-running key while a key not shown in
 * full was pressed at this prompt; Ctrl-O at all; a key not shown in full after a key that ended
 * the line in the same send. Ctrl-C ends the line without running it.
 */
export function judgePromptKeys(keys: readonly string[], earlier?: LineKeys): PromptKeysVerdict {
  let unshown: { key: string; index: number | undefined } | undefined = earlier?.unshown ? { key: earlier.unshown, index: undefined } : undefined;
  let ended: { key: string; index: number } | undefined;
  for (const [index, key] of keys.entries()) {
    if (key === 'Ctrl-O') return { refusal: { kind: 'next-line', run: { key, index } } };
    if (LINE_RUNNING_KEYS.includes(key)) {
      if (unshown) return { refusal: { kind: 'runs-unshown', run: { key, index }, by: unshown } };
      ended = { key, index };
    } else if (key === EMPTIES_LINE) {
      unshown = undefined;
      ended = { key, index };
    } else if (!shownInFull(key)) {
      if (ended) return { refusal: { kind: 'after-line', run: ended, by: { key, index } } };
      unshown ??= { key, index };
    }
  }
  if (ended) return {};
  const all = [...(earlier?.keys ?? []), ...keys];
  return { line: { keys: all.slice(0, MAX_LINE_KEYS_KEPT), more: (earlier?.more ?? 0) + Math.max(0, all.length - MAX_LINE_KEYS_KEPT), unshown: unshown?.key } };
}

/** A key as an error names it: `"Up" (keys[0])`, or `"Up", pressed by an earlier send at this prompt,`. */
function named(key: { key: string; index: number | undefined }): string {
  return key.index === undefined ? `${JSON.stringify(key.key)} (pressed by an earlier send at this prompt)` : `${JSON.stringify(key.key)} (keys[${key.index}])`;
}

/** The keys that may come before a line-running key at the prompt, for errors and docs. */
export const SHOWN_KEYS_TEXT = `typed characters, ${[...SHOWN_EDIT_KEYS].join(', ')}`;

/**
 * The error of a refused keys send at bash's prompt: what the keys would have done, that nothing
 * was pressed, and what to send instead (the command as `input` text; Ctrl-C to empty the line).
 */
export function promptKeysError(refusal: PromptKeysRefusal): TerminalError {
  const head = "keys refused, nothing was pressed: at the shell's prompt";
  const instead = `To run a command, send it as text in \`input\` (e.g. input "make test"): it replaces the command line and the confirmation shows it in full. At the prompt, a key that runs the line (Enter, Ctrl-M, Ctrl-J) may follow only keys whose effect the keys show: ${SHOWN_KEYS_TEXT}; Ctrl-C empties the line.`;
  switch (refusal.kind) {
    case 'runs-unshown': {
      const earlier = refusal.by.index === undefined ? ' The line still holds that text: keys ["Ctrl-C"] empty it.' : '';
      return new TerminalError(
        'INVALID_ARGUMENT',
        `${head} ${named(refusal.by)} ${unshownKeyEffect(refusal.by.key)}, text no confirmation shows, and ${named(refusal.run)} would run it. ${instead}${earlier}`,
      );
    }
    case 'next-line':
      return new TerminalError('INVALID_ARGUMENT', `${head} ${named(refusal.run)} ${unshownKeyEffect(refusal.run.key)}, which no confirmation shows. ${instead}`);
    case 'after-line':
      return new TerminalError(
        'INVALID_ARGUMENT',
        `${head} ${named(refusal.by)} follows ${named(refusal.run)}, which ends the line, so it would reach the next prompt or the command started, where it ${unshownKeyEffect(refusal.by.key)}. Send keys for what reads next in a separate send, after this one returns. ${instead}`,
      );
  }
}
