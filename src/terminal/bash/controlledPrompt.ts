/**
 * bash's controlled prompt: the rc file that loads the person's startup files first and then
 * installs the prompt that prints the session's markers (readiness/markers.ts), the traps report
 * (readiness/shellTraps.ts) and the line editor's bindings a send relies on.
 */

import * as path from 'node:path';
import { CONTINUATION_TEXT, MARKER_OSC, PROMPT_TEXT } from '../readiness/markers';
import { TRAPS_FILE } from '../readiness/shellTraps';
import { shellNamesReport } from '../readiness/shellNames';
import { bashPromptHooksReport } from '../readiness/promptHooks';
import { CLOSE_INHERITED_FDS, START_FOLDER_MOVED, bashVersionCheck, type StartupRcOptions } from '../session/startupRc';
import { shellQuote } from '../../common/shellQuote';

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
 * - What a command may change that would make the next send do something else is put back at every
 *   prompt by `__dsh_prompt`: history expansion off (`set -H` turns it on), and the paste brackets
 *   and kill-line key bound as above in every keymap (a `bind -x` or macro on the kill-line key would
 *   run before the text). The values it sets them from (`__dsh_ps0`, `__dsh_ps1`, `__dsh_ps2`), the
 *   nonce and the prompt's own functions are read-only, and the prompt's code calls every builtin
 *   through `builtin` and its functions with a leading backslash: no command can make it run other
 *   code by redefining them or by an alias or a function named `export`, `return` or `[`.
 * - What cannot be prevented is named: the report lists every PROMPT_COMMAND entry but DSH Bridge's
 *   own and a PS0, PS1 or PS2 not the controlled prompt's (promptHooks.ts), which a confirmation
 *   shows as it shows traps; a function named `builtin`, which would answer the prompt's and the
 *   report's calls, empties the report, which then reads as unknown (shellTraps.ts `standIn`).
 */
/**
 * What every send relies on in readline, bound again at every prompt by `__dsh_prompt` (a command
 * run earlier may have bound the send's kill-line key to a macro or, with `bind -x`, to a shell
 * command that would run before the text): the paste brackets and the kill-line key, in the emacs,
 * vi-insert and vi-command keymaps. Where line editing is off, `bind` fails silently.
 */
const SEND_KEYS_BINDINGS = ['emacs', 'vi-insert', 'vi-command']
  .map((map) => `builtin bind -m ${map} '"\\e[200~": bracketed-paste-begin'; builtin bind -m ${map} '"\\e[6973~": kill-whole-line';`)
  .join(' ');

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
  // Before the traps, the aliases and functions the shell defines (shellNames.ts), in the same write.
  // Whether no function is named `name`, as the special builtin `export` says (1: "not a
  // function"; 127, export disabled and nothing answering, is no answer). Not held against: a
  // function named export standing in for its disabled builtin answers this itself.
  const noFunction = (name: string) => `{ \\export -fn ${name}; [[ $? == 1 ]]; }`;
  // The hooks section (promptHooks.ts) closes the names section, before its delimiter.
  const reportWith = (entries: string) =>
    `{ \\builtin printf '%s\\n' "\${__dsh_seq:-0}"; ${shellNamesReport(bashPromptHooksReport())}; ${entries}; } 2>/dev/null >|${traps}`;
  // A function named builtin answers every `\builtin` of the prompt's code and of the report
  // before it (the names, the hooks): with one the file is emptied, the report unknown.
  const subshellEntries = `( POSIXLY_CORRECT=y; [[ -o posix ]] && ! ( trap() { :; } ) && ${noFunction('builtin')} && \\trap -p ) || >|${traps}`;
  // Whether a variable the report assigns holds a value or an attribute or names another variable
  // (checked after whatever ran before it): a read-only one would end the report at the assignment
  // (after its first line, so it would read "no trap"), an integer or a name reference to a
  // variable never empty (RANDOM) would pass a program or nothing for the trap builtin. The
  // report then comes from the subshell. `${v[@]@a}` is read even under `set -u`.
  const taken = (v: string) => `[[ -v ${v} || -R ${v} || -n \${${v}[@]@a} ]]`;
  // In POSIX mode. Nothing runs after `trap -p` but `unset` and `set` (whatever ran after could set
  // the trap again): with a function named either (the builtin disabled, so the function answers)
  // the traps are unknown.
  const posixEntries = [
    `if ${noFunction('set')} && ${noFunction('unset')} && ${noFunction('builtin')}; then`,
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
  const prompt = '{ \\__dsh_prompt; } 2>/dev/null';
  const privateTmux = shellQuote(startup.privateTmuxTmpdir);
  const restoreTmux =
    startup.userTmuxTmpdir === undefined ? 'unset TMUX_TMPDIR' : `export TMUX_TMPDIR=${shellQuote(startup.userTmuxTmpdir)}`;
  return [
    '# DSH Bridge controlled prompt. Sources the usual startup files first.',
    CLOSE_INHERITED_FDS,
    // bash before 4.4 (macOS's /bin/bash 3.2) has no PS0: the session refuses to start on it.
    bashVersionCheck(progress),
    '__dsh_old "${BASH_VERSINFO[0]}" "${BASH_VERSINFO[1]}" "$BASH_VERSION"',
    'unset -f __dsh_old',
    ...(startup.startFolder === undefined
      ? []
      : [
          `builtin cd -P . 2>/dev/null && builtin test "$PWD" = ${shellQuote(startup.startFolder)} || { builtin printf '%s %s\\n' ${START_FOLDER_MOVED} "$PWD" >> ${progress}; builtin exit 97; }`,
        ]),
    `__dsh_startup() { printf '%s\\n' "$1" >> ${progress} 2>/dev/null; return 0; }`,
    '__dsh_startup /etc/bash.bashrc',
    '[ -r /etc/bash.bashrc ] && . /etc/bash.bashrc',
    '__dsh_startup "$HOME/.bashrc"',
    '[ -r "$HOME/.bashrc" ] && . "$HOME/.bashrc"',
    '__dsh_startup done',
    'unset -f __dsh_startup',
    `__dsh_tmux() { [[ "\${TMUX_TMPDIR-}" == ${privateTmux} ]] && builtin ${restoreTmux}; builtin return 0; }`,
    ...(startup.keepHistoryFile ? [] : ['unset HISTFILE']),
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
    'readonly __dsh_n',
    '__dsh_seq=0',
    '__dsh_le=e',
    // Read-only, as the functions below: a command cannot add code that runs at every prompt to
    // what \`__dsh_prompt\` sets. The number is counted from its digits only: an arithmetic
    // expansion of a value such as \`a[$(cmd)]\` would run cmd at the next prompt.
    `readonly __dsh_ps1='\\[${m}P;$?;$((__dsh_seq=10#0\${__dsh_seq//[^0-9]/}+1));\${__dsh_le:-e}\\a\\]${PROMPT_TEXT}'`,
    `readonly __dsh_ps0='${m}S;\${__dsh_seq:-0}\\a'`,
    `readonly __dsh_ps2='\\[${m}C\\a\\]${CONTINUATION_TEXT}'`,
    `__dsh_prompt() { case :$SHELLOPTS: in *:emacs:*|*:vi:*) __dsh_le=e ;; *) __dsh_le=n ;; esac; builtin set +H; ${SEND_KEYS_BINDINGS} builtin shopt -s promptvars; PS1=$__dsh_ps1; PS0=$__dsh_ps0; PS2=$__dsh_ps2; builtin export -n PS0 PS1 PS2 __dsh_ps0 __dsh_ps1 __dsh_ps2 __dsh_seq __dsh_le __dsh_n 2>/dev/null; if [[ -n "\${__dsh_tmux_due-}" ]]; then builtin unset __dsh_tmux_due; \\__dsh_tmux; fi; builtin return 0; }`,
    // Every shopt option's name (`compgen -A shopt`), read once; `__dsh_optsave` keeps in
    // `__dsh_bo` those set now, `__dsh_opts` puts every option back as it was then. BASHOPTS
    // cannot serve: entering POSIX mode changes options without updating it.
    'builtin mapfile -t __dsh_shopts < <(builtin compgen -A shopt) 2>/dev/null',
    'readonly __dsh_shopts',
    '__dsh_optsave() { builtin local o; __dsh_bo=:; for o in "${__dsh_shopts[@]}"; do builtin shopt -q "$o" && __dsh_bo+="$o:"; done; builtin return 0; }',
    '__dsh_opts() { builtin local o; for o in "${__dsh_shopts[@]}"; do if [[ $__dsh_bo == *:"$o":* ]]; then builtin shopt -q "$o" || builtin shopt -s "$o"; else builtin shopt -q "$o" && builtin shopt -u "$o"; fi; done; builtin return 0; }',
    `if ${posixWorks}; then __dsh_rp=${shellQuote(posixReport)}; else __dsh_rp=${shellQuote(plainReport)}; fi`,
    // DSH Bridge's one PROMPT_COMMAND entry, the prompt then the report, kept read-only: the
    // report names every other entry (promptHooks.ts) by cutting this one from the end of each.
    `readonly __dsh_pe=${shellQuote(`${prompt}; `)}"$__dsh_rp"`,
    // The entries the startup files left, which the report tells apart from those added later.
    'readonly -a __dsh_pc0=("${PROMPT_COMMAND[@]}")',
    'if [ "${BASH_VERSINFO[0]}" -gt 5 ] || { [ "${BASH_VERSINFO[0]}" -eq 5 ] && [ "${BASH_VERSINFO[1]}" -ge 1 ]; }; then',
    `  PROMPT_COMMAND=("\${PROMPT_COMMAND[@]}" "$__dsh_pe")`,
    'else',
    `  PROMPT_COMMAND="\${PROMPT_COMMAND:+$PROMPT_COMMAND;}$__dsh_pe"`,
    'fi',
    'unset __dsh_rp',
    // No command can redefine or unset the functions the prompt and the report call.
    'readonly -f __dsh_prompt __dsh_tmux __dsh_optsave __dsh_opts',
    '__dsh_prompt',
    '__dsh_tmux_due=1',
    '',
  ].join('\n');
}
