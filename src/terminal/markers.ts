/**
 * The controlled prompt's markers and a streaming parser that removes them from PTY output.
 *
 * The shell prints OSC sequences (ECMA-48 "operating system command", `ESC ] … BEL`) that
 * terminals ignore: `ESC ] 6973 ; <nonce> ; <kind> ; <fields> BEL` with kind
 * - `P;<status>;<seq>;<editing>`: PS1 was shown; `status` is `$?` of the last command, `seq` counts
 *   prompts, `editing` is `e` while readline edits the line (`set -o emacs` or `vi`), `n` when line
 *   editing is off (absent in older shells' markers: unknown);
 * - `S;<seq>`: PS0, the shell starts executing what it read after prompt `seq`;
 * - `C`: PS2, the shell waits for the rest of a command;
 * - `D;<seq>`: not printed by the shell but written by the session itself into the PTY's output
 *   (ptyDrain.ts): everything the terminal's programs wrote before it has been read.
 * Only markers with this session's nonce count; anything else passes through as program output.
 */

import * as path from 'node:path';

/** OSC number used for our markers; arbitrary, unassigned by xterm. */
export const MARKER_OSC = '6973';

/** The drain marker `seq` (1-based) of the session with `nonce`, as written into the PTY's output. */
export function drainMarker(nonce: string, seq: number): string {
  return `${OSC_START}${MARKER_OSC};${nonce};D;${seq}${BEL}`;
}
/** Visible text of the controlled PS1, after its marker. */
export const PROMPT_TEXT = '$ ';
/**
 * What a send writes around text typed into bash's line editor: a private key sequence bound to
 * readline's `kill-whole-line` (the line starts empty whatever earlier keys left on it), then the
 * text as one bracketed paste (xterm ctlseqs "Bracketed Paste Mode"; readline inserts everything
 * between the brackets literally, so nothing in it acts as an editing key). Text cannot end the
 * paste early: ESC is refused in text (input.ts).
 */
export const KILL_LINE_KEYS = '\x1b[6973~';
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** Visible text of the controlled PS2, after its marker. */
export const CONTINUATION_TEXT = '> ';

const OSC_START = '\x1b]';
const BEL = '\x07';
/** A marker is short; anything longer without BEL is not ours and is released as text. */
const MAX_MARKER_LENGTH = 96;

export type MarkerEvent =
  | { kind: 'text'; text: string }
  /** `lineEditing`: readline edits the line (`set -o emacs`/`vi`); undefined when the marker does not say. */
  | { kind: 'prompt'; status: number; seq: number; lineEditing?: boolean }
  /** The controlled PS1 text was seen after a prompt marker. */
  | { kind: 'prompt-text' }
  | { kind: 'start'; seq: number }
  | { kind: 'continuation' }
  /** The session's own drain marker came through the PTY (ptyDrain.ts). */
  | { kind: 'drain'; seq: number };

/**
 * Stateful parser: feed decoded PTY chunks with `push`; it returns text and marker events in
 * order. A marker (or the prompt text after it) split across chunks is held back until complete.
 */
export class MarkerParser {
  private pending = '';
  /** Index in PROMPT_TEXT of the next character expected after a prompt marker; -1 when none is expected. */
  private promptTextIndex = -1;
  private readonly prefix: string;

  constructor(nonce: string) {
    this.prefix = `${OSC_START}${MARKER_OSC};${nonce};`;
  }

  push(chunk: string): MarkerEvent[] {
    const events: MarkerEvent[] = [];
    const data = this.pending + chunk;
    this.pending = '';
    let text = '';
    const flushText = () => {
      if (text) events.push({ kind: 'text', text });
      text = '';
    };
    let i = 0;
    while (i < data.length) {
      if (this.promptTextIndex >= 0) {
        if (data[i] === PROMPT_TEXT[this.promptTextIndex]) {
          this.promptTextIndex++;
          i++;
          if (this.promptTextIndex === PROMPT_TEXT.length) {
            this.promptTextIndex = -1;
            events.push({ kind: 'prompt-text' });
          }
          continue;
        }
        // Not our prompt text after all (e.g. redrawn prompt): release what was swallowed.
        text += PROMPT_TEXT.slice(0, this.promptTextIndex);
        this.promptTextIndex = -1;
      }
      const esc = data.indexOf('\x1b', i);
      if (esc < 0) {
        text += data.slice(i);
        break;
      }
      text += data.slice(i, esc);
      const rest = data.slice(esc);
      if (rest.length < this.prefix.length) {
        if (this.prefix.startsWith(rest)) {
          this.pending = rest;
          break;
        }
        text += '\x1b';
        i = esc + 1;
        continue;
      }
      if (!rest.startsWith(this.prefix)) {
        text += '\x1b';
        i = esc + 1;
        continue;
      }
      const bel = rest.indexOf(BEL, this.prefix.length);
      if (bel < 0) {
        if (rest.length <= MAX_MARKER_LENGTH) {
          this.pending = rest;
          break;
        }
        text += '\x1b';
        i = esc + 1;
        continue;
      }
      const event = parseFields(rest.slice(this.prefix.length, bel));
      if (!event) {
        text += rest.slice(0, bel + 1);
      } else {
        flushText();
        events.push(event);
        if (event.kind === 'prompt') this.promptTextIndex = 0;
      }
      i = esc + bel + 1;
    }
    flushText();
    return events;
  }
}

function parseFields(body: string): MarkerEvent | undefined {
  const parts = body.split(';');
  const int = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);
  switch (parts[0]) {
    case 'P': {
      const status = int(parts[1]);
      const seq = int(parts[2]);
      if (status === undefined || seq === undefined || parts.length > 4) return undefined;
      if (parts[3] === 'e' || parts[3] === 'n') return { kind: 'prompt', status, seq, lineEditing: parts[3] === 'e' };
      return parts[3] === undefined ? { kind: 'prompt', status, seq } : undefined;
    }
    case 'S': {
      const seq = int(parts[1]);
      return seq === undefined ? undefined : { kind: 'start', seq };
    }
    case 'C':
      return parts.length === 1 ? { kind: 'continuation' } : undefined;
    case 'D': {
      const seq = int(parts[1]);
      return seq === undefined || parts.length !== 2 ? undefined : { kind: 'drain', seq };
    }
    default:
      return undefined;
  }
}

/** Where the controlled rc reports its progress and how it treats tmux during startup; see {@link controlledPromptRc}. */
export interface StartupRcOptions {
  /**
   * File the rc appends the path of each startup file to before sourcing it, and `done` after the
   * last: when the shell stops being our shell during startup, its last line names the file that
   * did it (or is `done`: then a PROMPT_COMMAND one of the listed files set did it at the first
   * prompt).
   */
  progressFile: string;
  /**
   * Private `TMUX_TMPDIR` the session starts with, so a tmux started by a startup file gets a
   * server of its own and never attaches to the user's. The rc restores `userTmuxTmpdir` (or
   * unsets the variable) at the end of the first prompt's PROMPT_COMMAND, after whatever the
   * startup files put there ran (a `PROMPT_COMMAND` that execs tmux is startup too), unless a
   * startup file changed it.
   */
  privateTmuxTmpdir: string;
  /** The `TMUX_TMPDIR` the session would have had; undefined when unset. */
  userTmuxTmpdir: string | undefined;
  /**
   * The real path the shell must start in (see {@link START_FOLDER_MOVED}); undefined: not checked.
   */
  startFolder?: string;
}

/**
 * The progress file's line (then a space and the folder the shell found itself in) when the shell
 * started elsewhere than {@link StartupRcOptions.startFolder}: before anything else the rc asks
 * where it is (`cd -P .`, which sets `PWD` from getcwd(3)), and on a difference writes this line
 * and exits, before any startup file ran. A folder on the path replaced by a symbolic link between
 * the caller's check and the shell's start leads the shell elsewhere; this is what tells.
 */
export const START_FOLDER_MOVED = 'start-folder-moved';

/**
 * Name of the file in the session's private folder (beside `progressFile`) where the shell writes,
 * at every prompt, the prompt's number (`__dsh_seq` before PS1 counts it) on the first line and
 * then what `trap -p` prints: a trap may change the folder (or anything) after a confirmation
 * showed it. Read by {@link readShellTraps}.
 */
export const TRAPS_FILE = 'traps';

/**
 * One entry of `trap -p` (bash(1), SHELL BUILTIN COMMANDS): `trap -- 'action' NAME` on a line of
 * its own, the action a single-quoted word (`'\''` for a quote inside, newlines kept), or
 * `trap -- - NAME` for a signal left at its default (bash 5.2 in POSIX mode lists every signal).
 */
const TRAP_ENTRY = /^trap -- (?:'((?:[^']|'\\'')*)'|-) (\S+)\n?/;

/**
 * The traps that may run while a command runs or the shell waits at its prompt, and so change the
 * folder a command runs in after a confirmation showed it, from `trap -p`'s text: every entry but
 * the EXIT trap (it runs as the shell ends), a signal ignored (`''`: no action runs) and one at its
 * default (`-`). DEBUG runs
 * before each simple command, ERR and RETURN after some, a signal's trap whenever the signal
 * arrives. Text that does not read as entries is kept whole: it counts as set.
 */
export function runningTraps(printed: string): string {
  const kept: string[] = [];
  let rest = printed.trim();
  while (rest) {
    const entry = TRAP_ENTRY.exec(rest);
    if (!entry) return [...kept, rest].join('\n');
    // No action: a signal ignored (`''`) or at its default (`-`).
    if (entry[1] && entry[2] !== 'EXIT') kept.push(entry[0].trimEnd());
    rest = rest.slice(entry[0].length);
  }
  return kept.join('\n');
}

/**
 * The traps the shell reported at prompt `promptSeq` (1-based, the marker's number) from the
 * content of {@link TRAPS_FILE}: `{kind: 'none'}`, `{kind: 'set', text}` with the `trap -p`
 * entries of {@link runningTraps}, or `{kind: 'unknown'}` when the file is missing or from another
 * prompt (the shell no longer writes it: its PROMPT_COMMAND was replaced). `cut`: the file is
 * longer than `content`, so traps past it are unseen and the report counts as set.
 */
export function readShellTraps(content: string | undefined, promptSeq: number, cut = false): ShellTraps {
  if (content === undefined) return { kind: 'unknown' };
  const newline = content.indexOf('\n');
  const seq = newline < 0 ? NaN : Number(content.slice(0, newline));
  if (seq + 1 !== promptSeq) return { kind: 'unknown' };
  const kept = runningTraps(content.slice(newline + 1));
  // A report longer than was read may hold any trap past the cut: it counts as set.
  const text = cut ? [kept, '… (the rest of trap -p was not read)'].filter(Boolean).join('\n') : kept;
  return text ? { kind: 'set', text } : { kind: 'none' };
}

/** Whether the shell has traps that may run while a command does, as {@link readShellTraps} reads them. */
export type ShellTraps = { kind: 'none' } | { kind: 'set'; text: string } | { kind: 'unknown' };

/** `value` as one single-quoted POSIX shell word. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Shell lines that close every inherited descriptor above stderr except those open on the
 * session's own terminal (the same file as stdin, `test -ef`): a PTY master of another session, a
 * pipe or socket of the host, whatever the process that started the shell left open. Bash keeps
 * its terminal on a high descriptor (255, or the highest free one below it), so the descriptor is
 * told by what it is, not by its number: an inherited descriptor 255 (another session's master
 * when the host had that many open) is closed like any other. Descriptors are listed from
 * `/proc/$$/fd` (Linux) or `/dev/fd` (macOS, BSD); the glob is expanded before the loop, so its
 * directory handle is closed by then. Plain POSIX `exec N>&-` through `eval`, which bash 3.2
 * understands.
 */
export const CLOSE_INHERITED_FDS = [
  'if [ -d "/proc/$$/fd" ]; then __dsh_fds="/proc/$$/fd/"; else __dsh_fds=/dev/fd/; fi',
  'for __dsh_fd in "$__dsh_fds"*; do',
  '  __dsh_fd=${__dsh_fd##*/}',
  '  case $__dsh_fd in 0|1|2|*[!0-9]*) continue ;; esac',
  '  [ "$__dsh_fds$__dsh_fd" -ef "${__dsh_fds}0" ] && continue',
  '  eval "exec $__dsh_fd>&-" 2>/dev/null',
  'done',
  'unset __dsh_fd __dsh_fds',
].join('\n');

/**
 * The rc file that installs the controlled prompt after the user's startup files.
 * Rules (bash(1), PROMPTING and PROMPT_COMMAND):
 * - Before anything else it closes inherited descriptors ({@link CLOSE_INHERITED_FDS}), so neither
 *   the shell nor anything it starts holds another session's PTY master, whatever node-pty did.
 * - It records each startup file in `progressFile` before sourcing it, and runs them, and the first
 *   prompt's PROMPT_COMMAND they set, with the private `TMUX_TMPDIR` of {@link StartupRcOptions};
 *   the last element of that PROMPT_COMMAND restores the user's, once.
 * - PS1 carries the marker itself, with `$?` and an arithmetic seq increment: no command
 *   substitution, nothing that can fail under `set -u`/`set -e`/`pipefail`.
 * - PROMPT_COMMAND (appended last, as an array element on bash ≥ 5.1) re-asserts PS0/PS1/PS2 at
 *   every prompt, so a user's `PS1=` cannot silence it, and since PS1 itself carries the marker,
 *   neither can `PROMPT_COMMAND=`. (Both at once can; then the /proc probe still sees the shell
 *   reading its terminal.)
 * - The nonce is held only by the array `__dsh_n`, which the prompt strings name: bash never
 *   puts an array in a child's environment, so neither `set -a` nor `export PS1 __dsh_ps1`
 *   hands it to a program that could then print a forged marker. `__dsh_prompt` also un-exports
 *   the prompt's own variables at every prompt, so a child shell does not take PS1 for its own.
 * - Shell options a command may set do not break the prompt's code: `promptvars` is set again at
 *   every prompt, the traps report overwrites its file with `>|` (whatever `noclobber` says), and
 *   both PROMPT_COMMAND entries run with stderr on /dev/null, so `set -x` traces none of it into
 *   the output.
 * - PS1's marker says whether line editing is on (`__dsh_prompt` sets `__dsh_le` from SHELLOPTS):
 *   only then does readline read the line, and only readline understands a bracketed paste.
 * - Readline's paste brackets and our kill-line keys are bound in the emacs, vi-insert and
 *   vi-command keymaps. readline binds `ESC [ 200 ~` itself whatever `enable-bracketed-paste` says
 *   (that variable only makes readline ask the terminal to bracket pastes with `ESC [ ? 2004 h`);
 *   it stays off so those mode switches do not fill the output, and `enable-active-region` is off
 *   so pasted text is not echoed in reverse video.
 * - 8-bit input is text (convert-meta off, input-meta and output-meta on), never a Meta key, and no
 *   key is bound to edit-and-execute-command (the line run through an editor), in any keymap.
 * - History expansion (`!!`, `!-2`, `^a^b`) is off: it would run text other than what was typed.
 */
export function controlledPromptRc(nonce: string, startup: StartupRcOptions): string {
  // The nonce lives only in an array, which bash never exports (bash(1), Arrays): the prompt
  // strings name it, so no value a child program can inherit (by `set -a`, `export PS1`) holds it.
  const m = `\\e]${MARKER_OSC};\${__dsh_n[0]-};`;
  const progress = shellQuote(startup.progressFile);
  const traps = shellQuote(path.join(path.dirname(startup.progressFile), TRAPS_FILE));
  // At top level, not in a function: inside one, `trap -p` does not print the DEBUG trap. The
  // report's first line is the prompt's number; whoever answers `\builtin printf` may write it,
  // but the entries after it come from the trap builtin itself or the report reads as unknown.
  // Where bash allows (see `__dsh_rp` below), `trap -p` runs in POSIX mode, where the special
  // builtins (`trap`, `export`, `set`) are found before any function named trap or builtin:
  // - In the shell itself, costing no process at a prompt (a subshell per prompt added 8 ms to
  //   every command): POSIX mode is entered with `set -o posix` (whoever answers, `[[ -o posix ]]`
  //   is checked after) and left with the special builtin `set +o posix`; the shopt options POSIX
  //   mode turned on (bash 5.2 leaves `inherit_errexit` and `expand_aliases` set when it ends)
  //   are put back by `__dsh_opts` *before* `trap -p`: after it nothing runs but the special
  //   builtins `unset` and `set` (checked to be no function), since whatever ran after could set
  //   again a trap cleared before. Leaving POSIX mode sets `expand_aliases` and unsets
  //   `shift_verbose` (bash 5.2), which nothing trusted can put back: a shell where they are
  //   otherwise reports from the subshell. A shell already in POSIX mode stays in it. The
  //   report's own variables (`__dsh_sb`, `__dsh_bo`) are checked to hold nothing first.
  //   `export -fn trap` (special builtin) tells whether a function named trap exists: one can
  //   only be called instead of the builtin when the builtin is disabled (`enable -n`), so then
  //   the subshell below answers. Otherwise what ran was the builtin only if the assignment
  //   before it stayed (`__dsh_sb=y \trap -p`: POSIX keeps it after a special builtin, not after
  //   a program or a function); if it did not (the builtin disabled, a program named trap on
  //   PATH or none), the file is emptied: the traps are unknown.
  // - From a subshell in POSIX mode (entered by an assignment, which no function answers),
  //   where a function named trap cannot be defined unless the builtin is disabled; when it can
  //   be, or when POSIX mode cannot be entered (POSIXLY_CORRECT read-only, or set while the
  //   shell is not in POSIX mode), the file is emptied: the traps are unknown. A subshell's
  //   `trap -p` prints the shell's traps until the subshell sets one.
  // - Elsewhere (bash whose subshells print none of the shell's traps),
  //   `\builtin trap -p`: a function named builtin can silence it there.
  const reportWith = (entries: string) => `{ \\builtin printf '%s\\n' "\${__dsh_seq:-0}"; ${entries}; } 2>/dev/null >|${traps}`;
  const subshellEntries = `( POSIXLY_CORRECT=y; [[ -o posix ]] && ! ( trap() { :; } ) && \\trap -p ) || >|${traps}`;
  // Whether a variable the report assigns holds a value or an attribute or names another variable
  // (checked after whatever ran before it): a read-only one would end the report at the assignment
  // (after its first line, so it would read "no trap"), an integer or a name reference to a
  // variable never empty (RANDOM) would pass a program or nothing for the trap builtin. The
  // report then comes from the subshell. `${v[@]@a}` is read even under `set -u`.
  const taken = (v: string) => `[[ -v ${v} || -R ${v} || -n \${${v}[@]@a} ]]`;
  // Whether no function is named `name`, as the special builtin `export` says (1: "not a
  // function"; 127, export disabled and nothing answering, is no answer). Not held against: a
  // function named export standing in for its disabled builtin answers this itself.
  const noFunction = (name: string) => `{ \\export -fn ${name}; [[ $? == 1 ]]; }`;
  // In POSIX mode. Nothing runs after `trap -p` but `unset` and `set` (whatever ran after could set
  // the trap again): with a function named either (the builtin disabled, so the function answers)
  // the traps are unknown.
  const posixEntries = [
    `if ${noFunction('set')} && ${noFunction('unset')}; then`,
    `if ! ${taken('__dsh_sb')} && ${noFunction('trap')}; then __dsh_sb=; __dsh_sb=y \\trap -p; [[ -n $__dsh_sb ]] || >|${traps}; \\unset __dsh_sb; else ${subshellEntries}; fi`,
    `else >|${traps}; fi`,
  ].join(' ');
  const posixReport = reportWith(
    [
      `if [[ -o posix ]]; then ${posixEntries}`,
      `elif [[ -v POSIXLY_CORRECT ]] || ${taken('__dsh_bo')}; then ${subshellEntries}`,
      // The options POSIX mode turned on are put back before `trap -p`. Leaving POSIX mode sets
      // expand_aliases and unsets shift_verbose (bash 5.2), which cannot be put back after it: a
      // shell where they are otherwise reports from the subshell.
      `else \\__dsh_optsave; if [[ $__dsh_bo == *:expand_aliases:* && $__dsh_bo != *:shift_verbose:* ]]; then \\builtin set -o posix; fi`,
      `if [[ -o posix ]]; then \\__dsh_opts; \\unset __dsh_bo; ${posixEntries}; \\set +o posix; else \\builtin unset __dsh_bo; ${subshellEntries}; fi`,
      'fi',
    ].join('; '),
  );
  const plainReport = reportWith(`\\builtin trap -p || \\builtin printf '%s\\n' '(trap -p failed)'`);
  // Whether this bash does what the POSIX report needs: a function named trap cannot be defined
  // in POSIX mode, a subshell prints the traps of the shell that started it, and an assignment
  // before `trap` stays after it; and it tells a variable's attributes (`[[ -v ]]`, `[[ -R ]]`,
  // `${v[@]@a}`: bash 4.4), without which the report would stop at the check after its first line.
  const posixWorks = `[[ "$( trap ': dsh' USR2; ( POSIXLY_CORRECT=y; ( trap() { :; } ) || \\trap -p USR2 ) 2>/dev/null )" == *"': dsh'"* ]] && ( POSIXLY_CORRECT=y; __dsh_sb=; __dsh_sb=y \\trap -p >/dev/null; [[ -n $__dsh_sb ]] ) 2>/dev/null && ( declare -i __dsh_sb; declare -n __dsh_r=__dsh_sb; [[ -R __dsh_r && ! -v __dsh_sb && \${__dsh_sb[@]@a} == i ]] ) 2>/dev/null`;
  // Under `set -x` bash traces each command of PROMPT_COMMAND to stderr: the prompt's own code
  // runs with stderr on /dev/null, so none of it shows in the terminal's output.
  const prompt = '{ __dsh_prompt; } 2>/dev/null';
  const privateTmux = shellQuote(startup.privateTmuxTmpdir);
  const restoreTmux =
    startup.userTmuxTmpdir === undefined ? 'unset TMUX_TMPDIR' : `export TMUX_TMPDIR=${shellQuote(startup.userTmuxTmpdir)}`;
  return [
    '# DSH Bridge controlled prompt. Sources the usual startup files first.',
    CLOSE_INHERITED_FDS,
    ...(startup.startFolder === undefined
      ? []
      : [`builtin cd -P . 2>/dev/null && builtin test "$PWD" = ${shellQuote(startup.startFolder)} || { builtin printf '%s %s\\n' ${START_FOLDER_MOVED} "$PWD" >> ${progress}; builtin exit 97; }`]),
    `__dsh_startup() { printf '%s\\n' "$1" >> ${progress} 2>/dev/null; return 0; }`,
    '__dsh_startup /etc/bash.bashrc',
    '[ -r /etc/bash.bashrc ] && . /etc/bash.bashrc',
    '__dsh_startup "$HOME/.bashrc"',
    '[ -r "$HOME/.bashrc" ] && . "$HOME/.bashrc"',
    '__dsh_startup done',
    'unset -f __dsh_startup',
    `__dsh_tmux() { [ "\${TMUX_TMPDIR-}" = ${privateTmux} ] && ${restoreTmux}; return 0; }`,
    'unset HISTFILE',
    "bind 'set enable-bracketed-paste off' 2>/dev/null",
    "bind 'set enable-active-region off' 2>/dev/null",
    // 8-bit characters are characters, in any locale: with convert-meta on (readline's default
    // outside UTF-8) the bytes of a typed `ļ` (C4 BC) were Meta-D Meta-<, the first history line.
    "bind 'set convert-meta off' 2>/dev/null",
    "bind 'set input-meta on' 2>/dev/null",
    "bind 'set output-meta on' 2>/dev/null",
    ...['emacs', 'vi-insert', 'vi-command'].flatMap((map) => [
      `bind -m ${map} '"\\e[200~": bracketed-paste-begin' 2>/dev/null`,
      `bind -m ${map} '"\\e[6973~": kill-whole-line' 2>/dev/null`,
      // No key opens the line in an editor that runs it when it ends (Ctrl-X Ctrl-E, vi's `v`):
      // the editor's keys are a program's, which no prompt rule judges (promptKeys.ts).
      `bind -m ${map} -u edit-and-execute-command 2>/dev/null`,
      `bind -m ${map} -u vi-edit-and-execute-command 2>/dev/null`,
    ]),
    'set +H',
    'shopt -s promptvars',
    `__dsh_n=(${nonce})`,
    '__dsh_seq=0',
    '__dsh_le=e',
    `__dsh_ps1='\\[${m}P;$?;$((__dsh_seq=\${__dsh_seq:-0}+1));\${__dsh_le:-e}\\a\\]${PROMPT_TEXT}'`,
    `__dsh_ps0='${m}S;\${__dsh_seq:-0}\\a'`,
    `__dsh_ps2='\\[${m}C\\a\\]${CONTINUATION_TEXT}'`,
    '__dsh_prompt() { case :$SHELLOPTS: in *:emacs:*|*:vi:*) __dsh_le=e ;; *) __dsh_le=n ;; esac; builtin shopt -s promptvars; PS1=$__dsh_ps1; PS0=$__dsh_ps0; PS2=$__dsh_ps2; export -n PS0 PS1 PS2 __dsh_ps0 __dsh_ps1 __dsh_ps2 __dsh_seq __dsh_le __dsh_n 2>/dev/null; if [ -n "${__dsh_tmux_due-}" ]; then unset __dsh_tmux_due; __dsh_tmux; unset -f __dsh_tmux; fi; return 0; }',
    // Every shopt option's name (`compgen -A shopt`), read once; `__dsh_optsave` keeps in
    // `__dsh_bo` those set now, `__dsh_opts` puts every option back as it was then. BASHOPTS
    // cannot serve: entering POSIX mode changes options without updating it.
    'builtin mapfile -t __dsh_shopts < <(builtin compgen -A shopt) 2>/dev/null',
    '__dsh_optsave() { builtin local o; __dsh_bo=:; for o in "${__dsh_shopts[@]}"; do builtin shopt -q "$o" && __dsh_bo+="$o:"; done; return 0; }',
    '__dsh_opts() { builtin local o; for o in "${__dsh_shopts[@]}"; do if [[ $__dsh_bo == *:"$o":* ]]; then builtin shopt -q "$o" || builtin shopt -s "$o"; else builtin shopt -q "$o" && builtin shopt -u "$o"; fi; done; return 0; }',
    `if ${posixWorks}; then __dsh_rp=${shellQuote(posixReport)}; else __dsh_rp=${shellQuote(plainReport)}; fi`,
    'if [ "${BASH_VERSINFO[0]}" -gt 5 ] || { [ "${BASH_VERSINFO[0]}" -eq 5 ] && [ "${BASH_VERSINFO[1]}" -ge 1 ]; }; then',
    `  PROMPT_COMMAND=("\${PROMPT_COMMAND[@]}" ${shellQuote(prompt)} "$__dsh_rp")`,
    'else',
    `  PROMPT_COMMAND="\${PROMPT_COMMAND:+$PROMPT_COMMAND;}"${shellQuote(`${prompt};`)}"$__dsh_rp"`,
    'fi',
    'unset __dsh_rp',
    '__dsh_prompt',
    '__dsh_tmux_due=1',
    '',
  ].join('\n');
}
