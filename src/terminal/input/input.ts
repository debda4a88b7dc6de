/**
 * What one send types into a terminal: either *text* or *named keys*, never a mix.
 *
 * Text is what a person would paste: printable characters, newlines and tabs. Everything a
 * terminal or a line editor can act on is refused, naming the character: C0 controls other than
 * newline and tab (a CR LF pair counts as one newline), DEL, C1 controls (ECMA-48 § 5), and the
 * bidirectional formatting characters U+202A–U+202E and U+2066–U+2069 (Unicode UAX #9, "Trojan
 * Source", CVE-2021-42574), which make a confirmation read differently from what runs.
 *
 * Invisible characters (format characters, line and paragraph separators, default-ignorable code
 * points such as zero-width spaces, joiners, variation selectors, tag characters and the Hangul
 * fillers, spaces other than U+0020) are typed as they are, since real text holds them (an RLM in
 * Arabic, a ZWJ in an emoji), but everything a confirmation shows spells them out as `⟨U+200B⟩`
 * (`visibleText`), so two texts that look alike never read alike.
 *
 * Keys are what a person presses: Enter, Tab, arrows, Ctrl-letter, … Each has a name, shown by
 * name in the confirmation, and the byte sequence an xterm-compatible terminal sends for it
 * (xterm ctlseqs, "PC-Style Function Keys"; cursor keys depend on DECCKM, application cursor mode).
 */
import { quoteInput } from '../../common/quoteInput';
import { TerminalError } from '../errors';

/**
 * Largest text typed by one send (UTF-8 bytes); bash's line editor needs seconds per MiB. Text is
 * sized against it before anything else is done with it (`checkText`).
 */
export const MAX_INPUT_BYTES = 256 * 1024;

/**
 * Refuses text over MAX_INPUT_BYTES before any of it is read: a string longer in UTF-16 code
 * units than the limit in bytes is over it (every code unit is at least one byte), whatever it holds.
 * @throws TerminalError INVALID_ARGUMENT with the size and the limit.
 */
function checkTextSize(text: string, field: string): void {
  const bytes = text.length > MAX_INPUT_BYTES ? undefined : Buffer.byteLength(text);
  if (bytes !== undefined && bytes <= MAX_INPUT_BYTES) return;
  const size = bytes === undefined ? `${text.length} UTF-16 code units, more than ${MAX_INPUT_BYTES} bytes` : `${bytes} bytes`;
  throw new TerminalError(
    'INVALID_ARGUMENT',
    `${field} is ${size}; at most ${MAX_INPUT_BYTES} bytes are typed into a terminal. Write large data to a file instead (e.g. with a heredoc in several sends, or a file the program reads)`,
  );
}

/** Where a refused character sits in the text and what it is. */
export interface BadCharacter {
  /** 0-based index in UTF-16 code units. */
  index: number;
  codePoint: number;
  /** What the character is, e.g. "a control character (Ctrl-A)". */
  what: string;
}

/**
 * Characters that render as nothing, or as a blank other than a space, in common fonts: format
 * characters (Cf), line and paragraph separators (Zl, Zp), spaces other than U+0020 (Zs), default
 * ignorable code points (Unicode DerivedCoreProperties; the Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0 among them), and U+2800 BRAILLE PATTERN BLANK.
 */
const INVISIBLE = /^[\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}\u2800]$/u;

/** The opening bracket of the notation `⟨U+200B⟩`, itself shown by code point so the notation reads one way. */
const NOTATION_OPEN = 0x27e8;

/**
 * True when code point `codePoint` would not be seen as itself where text is shown (see
 * INVISIBLE); U+0020 SPACE is seen. Controls are not included: `checkText` refuses them.
 */
export function isInvisible(codePoint: number): boolean {
  return codePoint !== 0x20 && INVISIBLE.test(String.fromCodePoint(codePoint));
}

/** The bidirectional formatting characters refused in text (UAX #9 explicit embeddings, overrides, isolates). */
export const BIDI_CONTROLS: readonly number[] = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];

/** `U+0001`, `U+202E`: the Unicode notation of a code point (at least four hex digits). */
export function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether `codePoint` is a control character: C0 (U+0000–U+001F, newline and tab among them), DEL or C1 (U+007F–U+009F). */
export function isControlCode(codePoint: number): boolean {
  return codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/** What a control character is, for error messages: its key where a key types it. */
function controlName(cp: number): string {
  if (cp === 0x1b) return 'a control character (Escape)';
  if (cp === 0x0d) return 'a carriage return (a lone CR, not part of CR LF; the Enter key)';
  if (cp === 0x7f) return 'the DEL control character (Backspace)';
  if (cp === 0x00) return 'a NUL control character (Ctrl-Space)';
  if (cp < 0x20) return `a control character (${ctrlKeyName(cp)})`;
  return 'a C1 control character';
}

/** The Ctrl key that sends C0 control `cp` (0x01–0x1f): Ctrl-A … Ctrl-Z, Ctrl-[ … Ctrl-_. */
function ctrlKeyName(cp: number): string {
  return `Ctrl-${String.fromCharCode(cp + 0x40)}`;
}

/**
 * The first character of `text` that may not be typed as text, or undefined. `allowLineBreaks`
 * false also refuses newline and tab (single-line labels such as a session name); `shownOnly`
 * also returns what is typed but shown by code point (invisible characters, `⟨`).
 */
export function firstBadCharacter(text: string, allowLineBreaks: boolean, shownOnly = false): BadCharacter | undefined {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) {
        if (shownOnly && isInvisible(cp)) return { index: i, codePoint: cp, what: 'an invisible character' };
        i++;
        continue;
      }
      return { index: i, codePoint: unit, what: 'an unpaired UTF-16 surrogate (not a character; it would be typed as U+FFFD)' };
    }
    if (unit === 0x0a || unit === 0x09) {
      if (allowLineBreaks) continue;
      return { index: i, codePoint: unit, what: unit === 0x0a ? 'a line break' : 'a tab' };
    }
    if (unit === 0x0d && allowLineBreaks && text.charCodeAt(i + 1) === 0x0a) continue;
    if (isControlCode(unit)) return { index: i, codePoint: unit, what: controlName(unit) };
    if (BIDI_CONTROLS.includes(unit))
      return {
        index: i,
        codePoint: unit,
        what: 'a bidirectional control character, which makes text display in an order other than the one it is typed in',
      };
    if (shownOnly && unit >= 0xa0 && (unit === NOTATION_OPEN || isInvisible(unit)))
      return { index: i, codePoint: unit, what: 'an invisible character' };
  }
  return undefined;
}

/**
 * Validates text to be typed, its size (MAX_INPUT_BYTES) first, and returns it with every CR LF
 * pair turned into a newline.
 * @param field the input's name in the error (`input`, `command`).
 * @param keysHint how the caller presses keys instead, appended to the error about a control.
 * @throws TerminalError INVALID_ARGUMENT naming the first refused character (e.g. U+0001), its
 * position (1-based character), what it is and what to do instead.
 */
export function checkText(text: string, field = 'input', keysHint = KEYS_HINT): string {
  checkTextSize(text, field);
  const bad = firstBadCharacter(text, true);
  if (bad) {
    const position = [...text.slice(0, bad.index)].length + 1;
    const isBidi = BIDI_CONTROLS.includes(bad.codePoint);
    const fix = isBidi
      ? 'remove it: text is typed exactly as the confirmation shows it, so it may not reorder itself'
      : bad.codePoint >= 0xd800 && bad.codePoint <= 0xdfff
        ? 'send well-formed Unicode text'
        : `text may hold printable characters, newlines and tabs only. ${keysHint}`;
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `${field} contains ${codePointName(bad.codePoint)} at character ${position}, ${bad.what}; ${fix}`,
    );
  }
  return text.replace(/\r\n/g, '\n');
}

/**
 * Validates a one-line label (a session name): no control character, no line break or tab, no
 * bidirectional control.
 * @throws TerminalError INVALID_ARGUMENT naming the character.
 */
export function checkLabel(text: string, field: string): string {
  const bad = firstBadCharacter(text, false);
  if (bad)
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `${field} contains ${codePointName(bad.codePoint)}, ${bad.what}; use printable characters on one line`,
    );
  return text;
}

/**
 * The characters `visibleText` spells out, as a `v`-mode class: controls other than tab, line feed
 * and carriage return (those three are added where line breaks are spelled out too), invisible
 * characters as {@link isInvisible} says (U+0020 SPACE excepted), unassigned and private-use code
 * points (General Category Cn, Co), which fonts show as anything or nothing, U+1D159 MUSICAL
 * SYMBOL NULL NOTEHEAD, which is drawn empty, unpaired surrogates, and `⟨`.
 */
const SPELLED = String.raw`\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}[\p{Zs}--[\x20]]\p{Default_Ignorable_Code_Point}\p{Cn}\p{Co}\p{Cs}\u2800\u27e8\u{1D159}`;

/** Combining marks in a row shown as they are; a longer run is spelled out (see SHOWN_AS_CODE). */
export const MAX_SHOWN_MARKS = 4;

/**
 * What `visibleText` replaces: a run of one spelled character (see SPELLED), or a run of more than
 * MAX_SHOWN_MARKS combining marks (General Category M), which pile onto one character until it
 * reads as something else. Where line breaks are kept, a CR is spelled only outside CR LF.
 */
const SHOWN_AS_CODE = {
  keepingBreaks: new RegExp(String.raw`([${SPELLED}]|\r(?!\n))(?:(?!\r\n)\1)*|\p{M}{${MAX_SHOWN_MARKS + 1},}`, 'gv'),
  all: new RegExp(String.raw`([${SPELLED}\t\n\r])\1*|\p{M}{${MAX_SHOWN_MARKS + 1},}`, 'gv'),
};

/** Characters of a run shown one notation each; a longer run of one character is shown once with its count: `⟨U+200B ×87000⟩`. */
const RUN_SHOWN_EACH = 3;

/** The notation of `run` (code points), each distinct run of one code point once, with its count when longer than RUN_SHOWN_EACH. */
function notation(run: string): string {
  let out = '';
  const points = [...run];
  for (let i = 0; i < points.length; ) {
    let j = i + 1;
    while (j < points.length && points[j] === points[i]) j++;
    const name = `⟨${codePointName(points[i]!.codePointAt(0)!)}⟩`;
    out += j - i > RUN_SHOWN_EACH ? `⟨${codePointName(points[i]!.codePointAt(0)!)} ×${j - i}⟩` : name.repeat(j - i);
    i = j;
  }
  return out;
}

/**
 * Text as it can be shown safely: every character `checkText` would refuse (controls, line breaks
 * when `keepLineBreaks` is false, bidirectional controls, unpaired surrogates), every invisible
 * character (`isInvisible`: zero-width and other format characters, separators, Hangul fillers,
 * spaces other than U+0020, …), every character fonts do not show reliably (unassigned and
 * private-use code points, U+1D159) and every run of more than MAX_SHOWN_MARKS combining marks
 * replaced by its visible notation `⟨U+202E⟩` (a run of one character over three long:
 * `⟨U+200B ×87000⟩`); a `⟨` in the text is shown as `⟨U+27E8⟩`, so the notation never stands for
 * itself. One pass over the text. For everything a confirmation shows: text to be typed, and text
 * programs or models supplied that nobody validated (a command line read from /proc, a folder
 * name, a session name).
 */
export function visibleText(text: string, keepLineBreaks = false): string {
  return text.replace(keepLineBreaks ? SHOWN_AS_CODE.keepingBreaks : SHOWN_AS_CODE.all, notation);
}

// ---------------------------------------------------------------------------------------------
// Keys

const ESC = '\x1b';

/** A key: its canonical name and the bytes it sends, by cursor key mode (DECCKM). */
interface KeyDef {
  name: string;
  normal: string;
  /** Bytes in application cursor mode (DECCKM set, `ESC [ ? 1 h`), when they differ. */
  application?: string;
}

const NAMED_KEYS: KeyDef[] = [
  { name: 'Enter', normal: '\r' },
  { name: 'Tab', normal: '\t' },
  { name: 'Shift-Tab', normal: `${ESC}[Z` },
  { name: 'Escape', normal: ESC },
  { name: 'Backspace', normal: '\x7f' },
  { name: 'Delete', normal: `${ESC}[3~` },
  { name: 'Insert', normal: `${ESC}[2~` },
  { name: 'Up', normal: `${ESC}[A`, application: `${ESC}OA` },
  { name: 'Down', normal: `${ESC}[B`, application: `${ESC}OB` },
  { name: 'Right', normal: `${ESC}[C`, application: `${ESC}OC` },
  { name: 'Left', normal: `${ESC}[D`, application: `${ESC}OD` },
  { name: 'Home', normal: `${ESC}[H`, application: `${ESC}OH` },
  { name: 'End', normal: `${ESC}[F`, application: `${ESC}OF` },
  { name: 'PageUp', normal: `${ESC}[5~` },
  { name: 'PageDown', normal: `${ESC}[6~` },
  { name: 'Space', normal: ' ' },
  ...['P', 'Q', 'R', 'S'].map((c, i) => ({ name: `F${i + 1}`, normal: `${ESC}O${c}` })),
  ...[15, 17, 18, 19, 20, 21, 23, 24].map((n, i) => ({ name: `F${i + 5}`, normal: `${ESC}[${n}~` })),
  ...Array.from({ length: 26 }, (_, i) => ({ name: ctrlKeyName(i + 1), normal: String.fromCharCode(i + 1) })),
  ...[0x1c, 0x1d, 0x1e, 0x1f].map((cp) => ({ name: ctrlKeyName(cp), normal: String.fromCharCode(cp) })),
];

const BY_NAME = new Map(NAMED_KEYS.map((k) => [k.name.toLowerCase(), k]));
BY_NAME.set('esc', BY_NAME.get('escape')!);
BY_NAME.set('return', BY_NAME.get('enter')!);

/** The canonical key names, in table order: Enter, Tab, …, F1–F12, Ctrl-A–Ctrl-Z, Ctrl-\, Ctrl-], Ctrl-^, Ctrl-_. */
export const KEY_NAMES: readonly string[] = NAMED_KEYS.map((k) => k.name);

/** The most keys one send presses. */
export const MAX_KEYS = 256;

/** Longest key name accepted (UTF-16 code units); longer names are refused before they are read. */
export const MAX_KEY_NAME_UNITS = 32;

/**
 * The valid key names in one line, as package.json's schema lists them: ranges for F-keys and
 * Ctrl-letters, and the rule for single characters.
 */
export function keyNamesSummary(): string {
  const named = KEY_NAMES.filter((n) => !/^F\d+$/.test(n) && !/^Ctrl-[A-Z]$/.test(n) && !/^Ctrl-[\\\]^_]$/.test(n));
  return `${named.join(', ')}, F1–F12, Ctrl-A–Ctrl-Z (Ctrl-C interrupts, Ctrl-D is end of input on an empty line), Ctrl-\\, Ctrl-], Ctrl-^, Ctrl-_, or one printable character such as "q" or "y"`;
}

/** How to press keys instead of typing controls, appended to text errors. */
export const KEYS_HINT = 'To press keys, send them by name in `keys` instead of `input`, e.g. keys ["Ctrl-C"] or ["q"]';

/** How to press keys instead of a control in dsh_run's command: dsh_run types text only. */
export const RUN_KEYS_HINT = 'To press keys (Ctrl-C, arrows, Ctrl-D), use dsh_terminal_send with keys on the session id dsh_run returned';

/**
 * Validates key names and returns them canonical (`ctrl+c` → `Ctrl-C`, `esc` → `Escape`). A name
 * is a named key (case-insensitive, `+` or `-` after a modifier) or exactly one printable
 * character (case-sensitive: "q" and "Q" differ), which types itself.
 * @throws TerminalError INVALID_ARGUMENT for a non-array, an empty list, more than MAX_KEYS keys,
 * a name over MAX_KEY_NAME_UNITS long, or an unknown name (listing the valid names).
 */
export function checkKeys(keys: unknown, field = 'keys'): string[] {
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `${field} must be a non-empty array of key names, e.g. ["Enter"] or ["Ctrl-C"]; valid names: ${keyNamesSummary()}`,
    );
  }
  if (keys.length > MAX_KEYS)
    throw new TerminalError('INVALID_ARGUMENT', `${field} names ${keys.length} keys; at most ${MAX_KEYS} per send`);
  return keys.map((key, i) => {
    if (typeof key === 'string' && key.length > MAX_KEY_NAME_UNITS) {
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `${field}[${i}] is ${key.length} characters long; a key name is at most ${MAX_KEY_NAME_UNITS} (e.g. "Ctrl-C", "Enter", "q")`,
      );
    }
    if (typeof key === 'string') {
      if ([...key].length === 1 && !firstBadCharacter(key, false) && key !== ' ') return key;
      const def = BY_NAME.get(key.toLowerCase().replace(/^(ctrl|shift)\+/, '$1-'));
      if (def) return def.name;
    }
    throw new TerminalError('INVALID_ARGUMENT', `${field}[${i}] ${quoteInput(key)} is not a key; valid names: ${keyNamesSummary()}`);
  });
}

/**
 * The bytes that canonical key names (from `checkKeys`) send, in order.
 * @param applicationCursor DECCKM is set: cursor keys, Home and End send `ESC O x`.
 */
export function keyBytes(keys: readonly string[], applicationCursor = false): string {
  return keys
    .map((name) => {
      const def = BY_NAME.get(name.toLowerCase());
      if (!def) return name; // one printable character types itself
      return (applicationCursor && def.application) || def.normal;
    })
    .join('');
}

/** True when canonical key name `name` is a single character that types itself, not a named key. */
export function isCharacterKey(name: string): boolean {
  return !BY_NAME.has(name.toLowerCase());
}

/** A key name as a confirmation shows it: the name, or a single character in quotes. */
export function keyLabel(name: string): string {
  return isCharacterKey(name) ? JSON.stringify(name) : name;
}

// ---------------------------------------------------------------------------------------------
// A send's input

/** A validated send input: text (CR LF already a newline) or canonical key names. */
export type SendInput = { kind: 'text'; text: string } | { kind: 'keys'; keys: string[] };

declare const checkedInput: unique symbol;
/**
 * A send input as checkSendInput returned it, the only maker of one: whoever holds it need not
 * check it again (the service checks a send's input once and hands this to the session).
 */
export type CheckedSendInput = SendInput & { readonly [checkedInput]: true };

/**
 * Validates what one send types: exactly one of `input` (text) and `keys` (key names).
 * @throws TerminalError INVALID_ARGUMENT when both or neither are given, or either is invalid.
 */
export function checkSendInput(request: { input?: unknown; keys?: unknown }): CheckedSendInput {
  const hasInput = request?.input !== undefined && request?.input !== null;
  const hasKeys = request?.keys !== undefined && request?.keys !== null;
  if (hasInput === hasKeys) {
    throw new TerminalError(
      'INVALID_ARGUMENT',
      hasInput
        ? 'give either input (text to type) or keys (keys to press), not both: send them one after the other'
        : 'input or keys is required: input is the text to type (e.g. a command line), keys the keys to press (e.g. ["Ctrl-C"])',
    );
  }
  if (hasKeys) return { kind: 'keys', keys: checkKeys(request.keys) } as CheckedSendInput;
  if (typeof request.input !== 'string')
    throw new TerminalError('INVALID_ARGUMENT', 'input must be a string: the text to type into the terminal');
  return { kind: 'text', text: checkText(request.input) } as CheckedSendInput;
}
