/**
 * zsh's controlled prompt: a private `ZDOTDIR` whose `.zshenv`, `.zprofile`, `.zshrc` and `.zlogin`
 * each source the person's own file of that name (from their `ZDOTDIR`, else `HOME`), and whose
 * `.zlogin`, the last file a login shell reads, then installs the prompt that prints the session's
 * markers (readiness/markers.ts), the traps report (readiness/shellTraps.ts) and the line editor's
 * bindings a send relies on.
 */
import * as path from 'node:path';
import { CONTINUATION_TEXT, MARKER_OSC, PROMPT_TEXT } from '../readiness/markers';
import { TRAPS_FILE } from '../readiness/shellTraps';
import { NAMES_DELIMITER } from '../readiness/shellNames';
import { zshPromptHooksReport } from '../readiness/promptHooks';
import { START_FOLDER_MOVED, type StartupRcOptions } from '../session/startupRc';
import { shellQuote } from '../../common/shellQuote';

/** The startup files of a private ZDOTDIR, in the order a login interactive zsh reads them (zsh(1), STARTUP/SHUTDOWN FILES). */
export const ZSH_STARTUP_FILES = ['.zshenv', '.zprofile', '.zshrc', '.zlogin'] as const;

/**
 * The variable that carries the person's own `ZDOTDIR` into the private `.zshenv` (which removes
 * it); absent when the person had none (then zsh's rule applies: `HOME`).
 */
export const USER_ZDOTDIR_VARIABLE = 'DSH_BRIDGE_USER_ZDOTDIR';

/**
 * The four startup files of the private ZDOTDIR `zdotdir`, by name. Rules (zsh(1) STARTUP/SHUTDOWN
 * FILES, zshmisc(1) SPECIAL FUNCTIONS and EXPANSION OF PROMPT SEQUENCES, zshzle(1)):
 * - zsh reads `$ZDOTDIR/.zshenv`, `.zprofile`, `.zshrc`, `.zlogin` (the global files of /etc
 *   between them), each looked up with the value ZDOTDIR has at that moment. Each private file
 *   sets ZDOTDIR to the person's (unset when they had none: zsh then reads from HOME), sources
 *   their file of the same name at top level (not in a function, so `typeset` stays global and
 *   `return` ends only that file), keeps whatever ZDOTDIR that file left (a `.zshenv` that moves
 *   ZDOTDIR to ~/.config/zsh moves the later files too), and points ZDOTDIR back to `zdotdir` for
 *   the next file. `.zlogin` leaves the person's ZDOTDIR in place (exported when it came from the
 *   environment).
 * - Before anything else `.zshenv` closes inherited descriptors and clears the positional
 *   parameters (`zsh -l -i -s <zdotdir>`: the path is on the command line only so the session can
 *   tell its own shell; no startup file sees it).
 * - Each startup file is recorded in `progressFile` before it is read, `done` after the last;
 *   they and the first prompt's hooks run with the private `TMUX_TMPDIR`.
 * - The controlled prompt is installed last, in `.zlogin`: a `precmd` hook appended to
 *   `precmd_functions`, which moves itself back to the end of that array at every prompt (a hook
 *   a plugin adds at its first prompt runs before it from the next one on), sets PS1, PS2 and the
 *   options the prompt relies on (PROMPT_SUBST, PROMPT_PERCENT; PROMPT_SP and PROMPT_CR off, so
 *   `printf hello` leaves no `%` and the marker follows the text on its line), empties RPROMPT and
 *   RPROMPT2 (the right prompt is drawn after the marker and would read as output), and writes the
 *   traps report. A `preexec` hook, also kept last, prints the start marker (zsh has no PS0).
 * - PS1 carries the marker itself (`%{…%}`: zle counts it as zero width); `%?` is the status of
 *   the command before the prompt whatever precmd hooks ran. The nonce is only in the array
 *   `__dsh_n`, which PS1 names as `${__dsh_n[@]}` (the same under KSH_ARRAYS): zsh never exports an
 *   array, so neither ALL_EXPORT nor `export PS1` hands it to a program. Every prompt variable is
 *   un-exported at each prompt.
 * - The hooks' own commands never fail and never trace: each hook's body is one group with stderr
 *   on /dev/null, where XTRACE's lines go too (a redirection on the function's definition is not
 *   applied when zsh calls a hook), and the report and the hook order run under `emulate -L zsh`,
 *   so ERR_EXIT, NO_UNSET, KSH_ARRAYS, SH_WORD_SPLIT or PRINT_EXIT_VALUE set by a command change
 *   nothing in them.
 * - zle: the private kill-line key is bound to `.kill-whole-line` and the paste brackets to
 *   `.bracketed-paste` in the emacs, viins and vicmd keymaps. The dot names zle's builtin widgets,
 *   which no plugin can wrap or redefine (bracketed-paste-magic, url-quote-magic,
 *   zsh-autosuggestions, zsh-syntax-highlighting): what a send pasted is what the line holds.
 *   `zle_bracketed_paste` is unset, so zle does not switch the terminal's paste mode around each
 *   line (the switches would fill the output), and pasted text is not highlighted
 *   (`zle_highlight` paste:none). `edit-command-line` (the line run through an editor) is made a
 *   beep.
 * - History: HISTFILE is unset (unless `keepHistoryFile`), so nothing the session runs reaches the
 *   person's history file; a command with a leading space stays out of the session's own history
 *   (HIST_IGNORE_SPACE).
 * - Spelling correction (`setopt correct`) asks at the terminal before the command runs: zsh is
 *   then the foreground process reading its terminal after the start marker, which the session
 *   reports as a program waiting for input (the shell's own `read`, as in bash).
 */
/**
 * zsh lines that close every inherited descriptor above stderr that is not zsh's own: the
 * terminal (the same file as stdin, `-ef`), /dev/null and the startup file zsh is reading (zsh
 * reads a startup file through a descriptor it keeps open until the end of the file; zsh opens
 * these above 9 as it starts). What stays closed is what another process left open: a PTY master of
 * another session, a pipe or socket of the host. Listed from /proc/$$/fd (Linux) or /dev/fd.
 */
function closeInheritedFds(zdotdir: string): string {
  return [
    'if [[ -d /proc/$$/fd ]]; then __dsh_fds=/proc/$$/fd/; else __dsh_fds=/dev/fd/; fi',
    'for __dsh_fd in $__dsh_fds*(N); do',
    '  __dsh_fd=${__dsh_fd##*/}',
    '  [[ $__dsh_fd == <3-> ]] || continue',
    `  [[ $__dsh_fds$__dsh_fd -ef \${__dsh_fds}0 || $__dsh_fds$__dsh_fd -ef /dev/null || $__dsh_fds$__dsh_fd -ef ${shellQuote(path.join(zdotdir, '.zshenv'))} ]] && continue`,
    // zsh takes one digit before a redirection; `{name}>&-` closes the descriptor named by a parameter.
    '  { exec {__dsh_fd}>&-; } 2>/dev/null',
    'done',
    'unset __dsh_fd __dsh_fds',
  ].join('\n');
}

export function zshStartupFiles(
  nonce: string,
  zdotdir: string,
  startup: StartupRcOptions,
): Record<(typeof ZSH_STARTUP_FILES)[number], string> {
  const progress = shellQuote(startup.progressFile);
  const traps = shellQuote(path.join(path.dirname(startup.progressFile), TRAPS_FILE));
  const privateDir = shellQuote(zdotdir);
  const privateTmux = shellQuote(startup.privateTmuxTmpdir);
  const restoreTmux =
    startup.userTmuxTmpdir === undefined ? 'unset TMUX_TMPDIR' : `export TMUX_TMPDIR=${shellQuote(startup.userTmuxTmpdir)}`;
  // The person's ZDOTDIR while their file runs, and ours again after it (keeping what it set).
  const theirs = 'if [[ -n ${__dsh_uzd+x} ]]; then ZDOTDIR=$__dsh_uzd; else unset ZDOTDIR; fi';
  const ours = `if [[ -n \${ZDOTDIR+x} ]]; then __dsh_uzd=$ZDOTDIR; else unset __dsh_uzd; fi; ZDOTDIR=${privateDir}`;
  const sourceTheirs = (file: string) =>
    [
      theirs,
      `__dsh_startup "\${ZDOTDIR:-$HOME}/${file}"`,
      `[[ -r "\${ZDOTDIR:-$HOME}/${file}" ]] && builtin source "\${ZDOTDIR:-$HOME}/${file}"`,
      ours,
    ].join('\n');
  const m = `%{\\e]${MARKER_OSC};\${__dsh_n[@]};`;
  const zshenv = [
    '# DSH Bridge controlled startup (zsh). Sources your own .zshenv.',
    closeInheritedFds(zdotdir),
    'builtin set --',
    ...(startup.startFolder === undefined
      ? []
      : [
          `builtin cd -P . 2>/dev/null && [[ "$PWD" == ${shellQuote(startup.startFolder)} ]] || { builtin printf '%s %s\\n' ${START_FOLDER_MOVED} "$PWD" >> ${progress}; builtin exit 97; }`,
        ]),
    `__dsh_startup() { builtin printf '%s\\n' "$1" >> ${progress}; return 0; } 2>/dev/null`,
    `if [[ -n \${${USER_ZDOTDIR_VARIABLE}+x} ]]; then __dsh_uzd=$${USER_ZDOTDIR_VARIABLE}; __dsh_uzx=1; fi`,
    `unset ${USER_ZDOTDIR_VARIABLE}`,
    sourceTheirs('.zshenv'),
    '',
  ].join('\n');
  const zprofile = ['# DSH Bridge controlled startup (zsh). Sources your own .zprofile.', sourceTheirs('.zprofile'), ''].join('\n');
  const zshrc = ['# DSH Bridge controlled startup (zsh). Sources your own .zshrc.', sourceTheirs('.zshrc'), ''].join('\n');
  const zlogin = [
    '# DSH Bridge controlled startup (zsh). Sources your own .zlogin, then installs the controlled prompt.',
    sourceTheirs('.zlogin'),
    '__dsh_startup done',
    'unset -f __dsh_startup',
    // The person's ZDOTDIR from here on (exported when it came from the environment).
    `if [[ -n \${__dsh_uzd+x} ]]; then ZDOTDIR=$__dsh_uzd; [[ -n \${__dsh_uzx-} ]] && export ZDOTDIR; else unset ZDOTDIR; fi`,
    'unset __dsh_uzd __dsh_uzx',
    // Also set at once: zsh draws PROMPT_SP's mark before the first precmd runs.
    'builtin setopt no_prompt_sp no_prompt_cr',
    'PROMPT_EOL_MARK=',
    ...(startup.keepHistoryFile ? [] : ['unset HISTFILE']),
    'setopt hist_ignore_space',
    'unset zle_bracketed_paste',
    'zle_highlight+=(paste:none)',
    ...['emacs', 'viins', 'vicmd'].flatMap((map) => [
      `bindkey -M ${map} '\\e[200~' .bracketed-paste`,
      `bindkey -M ${map} '\\e[6973~' .kill-whole-line`,
    ]),
    'zle -A .beep edit-command-line 2>/dev/null',
    `typeset -ga __dsh_n; __dsh_n=(${nonce})`,
    'typeset -g __dsh_seq=0 __dsh_le=e',
    // Read-only: a command cannot add code to what the precmd hook sets PS1, PS2 and SPROMPT from.
    `typeset -gr __dsh_ps1=$'${m}P;%?;\${__dsh_seq};\${__dsh_le}\\a%}${PROMPT_TEXT}'`,
    `typeset -gr __dsh_ps2=$'${m}C\\a%}${CONTINUATION_TEXT}'`,
    `typeset -gr __dsh_sp=$'${m}S;\${__dsh_seq}\\a%}'`,
    `typeset -g __dsh_tmux_due=1`,
    `__dsh_tmux() { [[ "\${TMUX_TMPDIR-}" == ${privateTmux} ]] && ${restoreTmux}; return 0; }`,
    // The traps report: the prompt's number before this prompt, the names section
    // (readiness/shellNames.ts: aliases with their values, global and suffix aliases, and
    // functions; left out, so the names read as unknown, when a name holds a line end) closed by
    // the hooks besides DSH Bridge's (readiness/promptHooks.ts), then what `trap` prints (zsh prints
    // `trap -- 'action' NAME` entries and the TRAPxxx functions in full).
    [
      '__dsh_report() {',
      '  {',
      '  emulate -L zsh',
      '  local -a __dsh_a __dsh_g __dsh_s __dsh_f __dsh_all',
      '  local __dsh_k',
      '  __dsh_a=(${(k)aliases}) __dsh_g=(${(k)galiases}) __dsh_s=(${(k)saliases}) __dsh_f=(${(k)functions})',
      '  __dsh_all=($__dsh_a $__dsh_g $__dsh_s $__dsh_f)',
      '  {',
      `  builtin printf '%s\\n' "$__dsh_seq"`,
      `  if [[ -z \${(M)__dsh_all:#*$'\\n'*} ]]; then`,
      `    builtin printf '%s\\n' --names $__dsh_a --values`,
      `    for __dsh_k in $__dsh_a; do builtin printf 'alias %s=%s\\n' "$__dsh_k" "\${(qq)aliases[$__dsh_k]}"; done`,
      `    builtin printf '%s\\n' --global $__dsh_g --suffix $__dsh_s --functions $__dsh_f --end`,
      '  fi',
      `  ${zshPromptHooksReport()}`,
      `  builtin printf '%s\\n' ${NAMES_DELIMITER}`,
      '  builtin trap',
      `  } >| ${traps}`,
      '  return 0',
      '  } 2>/dev/null',
      '}',
    ].join('\n'),
    // Kept first among the precmd hooks: what the others print is the person's prompt drawing
    // (a theme's first line), which the controlled prompt replaces. Standard output goes to
    // /dev/null until the last hook (or, should that not run, the next command's preexec) puts
    // it back; their standard error stays (direnv's messages, errors).
    '__dsh_quiet() { { [[ -n ${__dsh_out-} ]] || exec {__dsh_out}>&1 >/dev/null; return 0; } 2>/dev/null; }',
    // Standard output is put back only while it is still /dev/null: a hook that moved it itself
    // (an instant prompt giving back the output it held during startup) keeps its own. Two execs:
    // zsh 5.9 left standard output unredirected at the next `{name}>&1` after one
    // `exec >&$fd {name}>&-`.
    '__dsh_loud() { { if [[ -n ${__dsh_out-} ]]; then [[ /dev/fd/1 -ef /dev/null ]] && exec >&$__dsh_out; exec {__dsh_out}>&-; unset __dsh_out; fi; return 0; } 2>/dev/null; }',
    [
      '__dsh_precmd() {',
      '  {',
      '  __dsh_loud',
      '  __dsh_report',
      '  builtin setopt prompt_subst prompt_percent no_prompt_sp no_prompt_cr no_prompt_bang',
      '  __dsh_seq=$(( __dsh_seq + 1 ))',
      '  if [[ -o zle ]]; then __dsh_le=e; else __dsh_le=n; fi',
      '  PS1=$__dsh_ps1 PS2=$__dsh_ps2 RPROMPT= RPROMPT2= PROMPT_EOL_MARK=',
      // The correction question (SPROMPT) starts with the start marker: zsh asks it after the
      // line was read and before preexec, and then reads the answer itself, as a program would.
      "  [[ ${SPROMPT-} == *__dsh_n* ]] || SPROMPT=$__dsh_sp${SPROMPT-\"zsh: correct '%R' to '%r' [nyae]? \"}",
      '  builtin typeset -g +x PS1 PS2 RPROMPT RPROMPT2 SPROMPT __dsh_ps1 __dsh_ps2 __dsh_sp __dsh_seq __dsh_le',
      '  __dsh_order',
      '  if [[ -n ${__dsh_tmux_due-} ]]; then unset __dsh_tmux_due; __dsh_tmux; unset -f __dsh_tmux; fi',
      '  return 0',
      '  } 2>/dev/null',
      '}',
    ].join('\n'),
    // Printed on the shell's stderr (as bash prints PS0), through descriptor 9 while stderr is on
    // /dev/null, so XTRACE traces none of it.
    `__dsh_preexec() { { __dsh_loud; __dsh_order; builtin printf '\\e]${MARKER_OSC};%s;S;%s\\a' "\${__dsh_n[@]}" "$__dsh_seq" >&9; return 0; } 9>&2 2>/dev/null; }`,
    // The hook arrays, ordered in zsh's own syntax whatever options (KSH_ARRAYS, SH_GLOB) are set.
    [
      '__dsh_order() {',
      '  {',
      '  emulate -L zsh',
      '  typeset -ga precmd_functions preexec_functions',
      '  precmd_functions=(__dsh_quiet ${${precmd_functions:#__dsh_quiet}:#__dsh_precmd} __dsh_precmd)',
      '  preexec_functions=(${preexec_functions:#__dsh_preexec} __dsh_preexec)',
      '  return 0',
      '  } 2>/dev/null',
      '}',
    ].join('\n'),
    '__dsh_order',
    // The hooks the startup files left, which the report tells apart from those added later.
    'typeset -gra __dsh_pre0=(${precmd_functions:#(__dsh_quiet|__dsh_precmd)}) __dsh_exe0=(${preexec_functions:#__dsh_preexec})',
    'typeset -gr __dsh_precmd0="${functions[precmd]-}" __dsh_preexec0="${functions[preexec]-}"',
    '',
  ].join('\n');
  return { '.zshenv': zshenv, '.zprofile': zprofile, '.zshrc': zshrc, '.zlogin': zlogin };
}
