/**
 * Keys pressed where bash's line editor (readline) reads them: at the shell's prompt or
 * continuation prompt with line editing on. There many keys put text on the command line that is
 * not in the keys themselves: a line of the shell's history (Up, Down, Ctrl-P, Ctrl-N, Ctrl-R,
 * Ctrl-S, PageUp, PageDown, vi's `k` after Escape), text cut earlier (Ctrl-Y), a completion (Tab),
 * the last word of an earlier command (Escape `.`, Escape `_`), or whatever the person's
 * ~/.inputrc binds a key to. A confirmation that shows the keys by name cannot show that text, so
 * a send is refused when a key would run the line (Enter, Ctrl-M, Ctrl-J) while the line may hold
 * such text. Keys whose effect on the line is the keys themselves (typed characters, cursor
 * motion, deletion) may be followed by Enter. Refused outright: Ctrl-O (runs the line and recalls
 * the next), Ctrl-X (Ctrl-X Ctrl-E runs the line through an editor, whose keys no prompt rule
 * sees) and `v` after Escape (the same in vi's command mode).
 *
 * Ctrl-C empties the line only when it interrupts (the terminal's ISIG with VINTR ^C): then the
 * shell shows a new prompt, and a new prompt starts with an empty line. So Ctrl-C clears nothing
 * here; the new prompt does (the session keys what a line holds by the prompt's number).
 *
 * The line may also hold text that no send at the prompt typed: keys sent to a program that it
 * left unread when it ended (they reach the shell's prompt), or keys the person typed during Take
 * Over (LineKeys.foreign). Keys for a program are judged for what they may leave
 * (judgeLeftoverKeys): what follows the program's read is judged as at an empty prompt.
 *
 * The rule knows what bash binds these keys to by default (emacs and vi insert mode); a printable
 * character the person bound to a macro in ~/.inputrc is not known to it.
 */
import { TerminalError } from '../errors';
import { isCharacterKey } from './input';

/** Keys that make readline run the command line (accept-line; Ctrl-O: operate-and-get-next). */
export const LINE_RUNNING_KEYS: readonly string[] = ['Enter', 'Ctrl-M', 'Ctrl-J', 'Ctrl-O'];

/**
 * Keys refused at the prompt whatever came before: Ctrl-O runs the line and recalls the next one;
 * Ctrl-X starts bash's key sequences, among them Ctrl-X Ctrl-E (edit-and-execute-command: the
 * line, recalled or not, opens in an editor, a program whose keys no prompt rule judges, and runs
 * when the editor ends) and Ctrl-X `e` (replays recorded keys).
 */
const REFUSED_KEYS: readonly string[] = ['Ctrl-O', 'Ctrl-X'];

/** vi command mode's edit-and-execute-command: refused after an Escape at this prompt. */
const VI_EDIT_KEY = 'v';

/**
 * Keys that end a read in canonical mode (the line discipline hands the line over, or a signal
 * ends the reader): Enter (CR, read as NL with ICRNL), Ctrl-M, Ctrl-J, Ctrl-D (EOF) and the
 * signal characters Ctrl-C, Ctrl-\ and Ctrl-Z. A key is counted here even when the terminal maps
 * it otherwise: the earlier the read is taken to end, the more keys are judged as leftovers.
 */
const READ_ENDING_KEYS: readonly string[] = ['Enter', 'Ctrl-M', 'Ctrl-J', 'Ctrl-D', 'Ctrl-C', 'Ctrl-\\', 'Ctrl-Z'];

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

/** The key that interrupts: where it does (ISIG, VINTR ^C) bash drops the line and prompts again. */
const INTERRUPT = 'Ctrl-C';

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
      return 'starts a key sequence (Ctrl-X Ctrl-E opens the line in an editor and runs it when the editor ends)';
    case VI_EDIT_KEY:
      return "after Escape (vi's command mode) opens the line in an editor and runs it when the editor ends";
    case 'Ctrl-V':
    case 'Ctrl-Q':
      return 'inserts the next key as a character';
    default:
      return "does what the shell's line editor binds it to";
  }
}

/**
 * Where text on the command line came from that no send at this prompt typed: keys sent to a
 * program, which it may have left unread when it ended (`program`), or keys the person typed
 * during Take Over (`user`).
 */
export type LineSource = 'program' | 'user';

/** What text from `from` is, as errors and confirmations say it. */
export function lineSourceText(from: LineSource): string {
  return from === 'user'
    ? 'text typed by you during Take Over'
    : "keys sent to a program that it may have left unread when it ended (they reach the shell's prompt)";
}

/**
 * Why keys pressed at bash's prompt may not be pressed (indexes are into the send's keys):
 * - `runs-unshown`: `run` would run the line while it may hold text put there by `by`, pressed
 *   before it in this send (`by.index`) or by an earlier send at this prompt (`by.index` undefined);
 * - `runs-foreign`: `run` would run the line while it may hold text no send at this prompt typed
 *   (`from`, see LineSource);
 * - `refused-key`: `key` is refused at the prompt (Ctrl-O, Ctrl-X, `v` after Escape);
 * - `after-line`: `by` follows a key that ended the line in this send (`run`: Enter, Ctrl-M,
 *   Ctrl-J or Ctrl-C), so it reaches the next prompt or the command started, which this send
 *   cannot follow.
 */
export type PromptKeysRefusal =
  | { kind: 'runs-unshown'; run: { key: string; index: number }; by: { key: string; index: number | undefined } }
  | { kind: 'runs-foreign'; run: { key: string; index: number }; from: LineSource }
  | { kind: 'refused-key'; key: { key: string; index: number } }
  | { kind: 'after-line'; run: { key: string; index: number }; by: { key: string; index: number } };

/**
 * The keys pressed at the shell's current prompt by earlier sends, which the command line holds:
 * the first MAX_LINE_KEYS_KEPT of them, how many more there were, the first of them that put text
 * on the line no confirmation shows (undefined when all are shown in full), and where other text
 * on the line came from (`foreign`, undefined when none: see LineSource).
 */
export interface LineKeys {
  keys: string[];
  more: number;
  unshown?: string;
  foreign?: LineSource;
}

/** How many keys pressed at one prompt are kept (and shown) by name; later ones are counted. */
export const MAX_LINE_KEYS_KEPT = 256;

/** What keys do at bash's prompt: a refusal, or what the line holds after them. */
export interface PromptKeysVerdict {
  /** Set when the send must be refused (nothing pressed). */
  refusal?: PromptKeysRefusal;
  /**
   * The keys pressed at this prompt after the send (the earlier ones, then this send's). Undefined
   * when refused, or after a key that ran the line (Enter, Ctrl-M, Ctrl-J): the later keys then
   * reach another prompt or the command started. After Ctrl-C it is kept, as if the line stayed:
   * where Ctrl-C interrupts, the new prompt that follows starts a line of its own.
   */
  line?: LineKeys;
}

/**
 * Judges canonical key names (see input.ts `checkKeys`) pressed where bash's line editor reads
 * them, after `earlier`: what the line at this same prompt holds (its line was empty when it was
 * shown, but for `earlier.foreign`). Refused (see PromptKeysRefusal): a line-running key while a
 * key not shown in full was pressed at this prompt or foreign text may be on the line; Ctrl-O,
 * Ctrl-X and `v` after an Escape at this prompt at all; a key not shown in full after a key that
 * ended the line in the same send. Ctrl-C empties nothing here (see the module comment). Only the
 * keys from index `start` on are judged (indexes in a refusal stay indexes into `keys`).
 */
export function judgePromptKeys(keys: readonly string[], earlier?: LineKeys, start = 0): PromptKeysVerdict {
  let unshown: { key: string; index: number | undefined } | undefined = earlier?.unshown
    ? { key: earlier.unshown, index: undefined }
    : undefined;
  const foreign = earlier?.foreign;
  // vi's command mode may be on once Escape was pressed here, by a send or by the person (kept
  // keys beyond MAX_LINE_KEYS_KEPT are not known by name: an unshown one among them counts).
  let escaped = foreign !== undefined || !!earlier?.keys.includes('Escape') || (!!earlier?.more && !!earlier.unshown);
  let ended: { key: string; index: number } | undefined;
  let ran = false;
  for (let index = start; index < keys.length; index++) {
    const key = keys[index]!;
    if (REFUSED_KEYS.includes(key) || (key === VI_EDIT_KEY && escaped)) return { refusal: { kind: 'refused-key', key: { key, index } } };
    if (LINE_RUNNING_KEYS.includes(key)) {
      if (unshown) return { refusal: { kind: 'runs-unshown', run: { key, index }, by: unshown } };
      if (foreign) return { refusal: { kind: 'runs-foreign', run: { key, index }, from: foreign } };
      ended = { key, index };
      ran = true;
    } else if (key === INTERRUPT) {
      ended ??= { key, index };
    } else if (!shownInFull(key)) {
      if (ended) return { refusal: { kind: 'after-line', run: ended, by: { key, index } } };
      if (key === 'Escape') escaped = true;
      unshown ??= { key, index };
    }
  }
  if (ran) return {};
  const all = [...(earlier?.keys ?? []), ...keys.slice(start)];
  const line: LineKeys = {
    keys: all.slice(0, MAX_LINE_KEYS_KEPT),
    more: (earlier?.more ?? 0) + Math.max(0, all.length - MAX_LINE_KEYS_KEPT),
    unshown: unshown?.key,
  };
  if (foreign) line.foreign = foreign;
  return { line };
}

/**
 * Why keys for a program reading the terminal may not be pressed: `refusal` (indexes into the
 * send's keys) is what the keys after `after` would do at an empty prompt; `lines`: the program
 * reads whole lines (canonical mode), so `after` is the key that ends its line; else it reads key
 * by key, and `after` is the first key.
 */
export interface LeftoverRefusal {
  lines: boolean;
  after: { key: string; index: number };
  refusal: PromptKeysRefusal;
}

/**
 * Judges keys for a program that reads the terminal. What it does not read before it ends stays
 * in the terminal's input for whatever reads next: the shell's prompt, where such keys would run
 * a line no confirmation shows (`python3 -c 'input()'` and `y Enter Up Enter`; `read -n1` and
 * `y Up Enter`). Which keys it reads cannot be known, so the keys after the first read it may end
 * on are judged as at an empty prompt: with `canonical` (ICANON: it reads whole lines) the keys
 * after the first key that ends a line or signals (READ_ENDING_KEYS); else (it reads key by key)
 * the keys after the first one. A program that reads two keys or more and then ends is not
 * covered: whatever it leaves makes the next prompt's line foreign (LineKeys.foreign), where no
 * key may run it. Undefined when the keys pass.
 */
export function judgeLeftoverKeys(keys: readonly string[], canonical: boolean): LeftoverRefusal | undefined {
  const end = canonical ? keys.findIndex((k) => READ_ENDING_KEYS.includes(k)) : 0;
  if (end < 0) return undefined;
  const refusal = judgePromptKeys(keys, undefined, end + 1).refusal;
  if (!refusal) return undefined;
  return { lines: canonical, after: { key: keys[end] ?? '', index: end }, refusal };
}

/** A key as an error names it: `"Up" (keys[0])`, or `"Up", pressed by an earlier send at this prompt,`. */
function named(key: RefusedKey): string {
  return key.index === undefined
    ? `${JSON.stringify(key.key)} (pressed by an earlier send at this prompt)`
    : `${JSON.stringify(key.key)} (keys[${key.index}])`;
}

/** The keys that may come before a line-running key at the prompt, for errors and docs. */
export const SHOWN_KEYS_TEXT = `typed characters, ${[...SHOWN_EDIT_KEYS].join(', ')}`;

/** A key as a refusal names it: where it was pressed (`index` in this send's keys, undefined for a key an earlier send pressed at this prompt). */
export type RefusedKey = { key: string; index: number | undefined };

/**
 * What the keys of `refusal` would do, as one clause, for an error or a confirmation ("`Up` puts a
 * line from the shell's history on the command line, <unshown>, and `Enter` would run it"): `name`
 * names a key, `unshown` says that the text a key puts on the line is not shown ("which no
 * confirmation shows", "which this dialog cannot show").
 */
export function refusalClause(refusal: PromptKeysRefusal, name: (key: RefusedKey) => string, unshown: string): string {
  switch (refusal.kind) {
    case 'runs-unshown':
      return `${name(refusal.by)} ${unshownKeyEffect(refusal.by.key)}, ${unshown}, and ${name(refusal.run)} would run it`;
    case 'runs-foreign':
      return `the command line may hold ${lineSourceText(refusal.from)}, ${unshown}, and ${name(refusal.run)} would run it`;
    case 'refused-key':
      return `${name(refusal.key)} ${unshownKeyEffect(refusal.key.key)}, ${unshown}`;
    case 'after-line':
      return `${name(refusal.by)} follows ${name(refusal.run)}, which ends the line, so it would reach the next prompt or the command started, where it ${unshownKeyEffect(refusal.by.key)}, ${unshown}`;
  }
}

/** How an error ends the clause of {@link refusalClause}. */
const NOT_SHOWN = 'which no confirmation shows';

const INSTEAD = `To run a command, send it as text in \`input\` (e.g. input "make test"): it replaces the command line and the confirmation shows it in full. At the prompt, a key that runs the line (Enter, Ctrl-M, Ctrl-J) may follow only keys whose effect the keys show: ${SHOWN_KEYS_TEXT}; keys ["Ctrl-C"] alone empty the line (the shell shows a new prompt).`;

/**
 * The error of a refused keys send at bash's prompt: what the keys would have done, that nothing
 * was pressed, and what to send instead (the command as `input` text; Ctrl-C to empty the line).
 */
export function promptKeysError(refusal: PromptKeysRefusal): TerminalError {
  const head = "keys refused, nothing was pressed: at the shell's prompt";
  const earlier =
    refusal.kind === 'runs-foreign' || (refusal.kind === 'runs-unshown' && refusal.by.index === undefined)
      ? ' The line still holds that text: keys ["Ctrl-C"] alone empty it.'
      : '';
  const next = refusal.kind === 'after-line' ? ' Send keys for what reads next in a separate send, after this one returns.' : '';
  return new TerminalError('INVALID_ARGUMENT', `${head} ${refusalClause(refusal, named, NOT_SHOWN)}.${next} ${INSTEAD}${earlier}`);
}

/**
 * The error of refused keys for a program (`reader`, its command line) that reads the terminal:
 * which keys it may leave for the shell's prompt, what they would do there, that nothing was
 * pressed, and how to send them instead (in two sends).
 */
export function leftoverKeysError(reader: string, leftover: LeftoverRefusal): TerminalError {
  const after = named(leftover.after);
  const how = leftover.lines
    ? `\`${reader}\` reads whole lines (the terminal is in canonical mode), so the keys after ${after} are left for whatever reads the terminal next`
    : `\`${reader}\` reads key by key (the terminal is not in canonical mode) and may end after any key, e.g. after ${after}; the keys it does not read are left for whatever reads the terminal next`;
  return new TerminalError(
    'INVALID_ARGUMENT',
    `keys refused, nothing was pressed: ${how}, the shell's prompt once the program ends. There ${refusalClause(leftover.refusal, named, NOT_SHOWN)}. Send the keys up to ${after} alone, and the rest in a later send, once its confirmation names who reads them. ${INSTEAD}`,
  );
}
