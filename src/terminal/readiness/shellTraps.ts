/**
 * The traps report: at every prompt the controlled prompt writes the prompt's number and what
 * `trap -p` prints into a file of the session's private folder; a confirmation shows the traps
 * that may run while a command does (a trap may change the folder, or anything, after a
 * confirmation showed it).
 */
import { splitNamesSection } from './shellNames';
import { readPromptHooks } from './promptHooks';

/**
 * Name of the file in the session's private folder (beside `progressFile`) where the shell writes,
 * at every prompt, the prompt's number (`__dsh_seq` before PS1 counts it) on the first line, the
 * aliases and functions it defines (shellNames.ts; bash), and then what `trap -p` prints: a trap may change the folder (or anything) after a confirmation
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
 * content of {@link TRAPS_FILE}: `{kind: 'none'}`, `{kind: 'set', text}` with the code the shell
 * runs around commands besides DSH Bridge's own (promptHooks.ts: PROMPT_COMMAND entries, a
 * changed PS0, zsh's precmd and preexec hooks), one per line, then the `trap -p` entries of
 * {@link runningTraps}, with `startupHooksOnly` when all of it is hooks the startup files set up
 * (the person's own configuration, marked so in the text); or `{kind: 'unknown'}` when the file is missing or from another prompt
 * (the shell no longer writes it: its PROMPT_COMMAND was replaced), with `standIn` when the shell
 * emptied it (a function or program stands in for a builtin the prompt's code runs, such as a
 * function named `builtin`, so nothing it reports can be trusted). `cut`: the file is longer than
 * `content`, so traps past it are unseen and the report counts as set.
 */
export function readShellTraps(content: string | undefined, promptSeq: number, cut = false): ShellTraps {
  if (content === undefined) return { kind: 'unknown' };
  if (content === '') return { kind: 'unknown', standIn: true };
  const newline = content.indexOf('\n');
  const seq = newline < 0 ? NaN : Number(content.slice(0, newline));
  if (seq + 1 !== promptSeq) return { kind: 'unknown' };
  // The shell's names and its prompt hooks come first (shellNames.ts, promptHooks.ts); the traps
  // follow them. A names section that is not well formed hides where the traps start: unknown.
  const { hooks: hookLines, traps } = splitNamesSection(content.slice(newline + 1));
  if (traps === undefined) return { kind: 'unknown' };
  const hooks = readPromptHooks(hookLines) ?? { startup: [], added: [] };
  const running = runningTraps(traps);
  const startup = hooks.startup.map((h) => `${h} (set up by the startup files)`);
  const kept = [...startup, ...hooks.added, running].filter(Boolean).join('\n');
  // A report longer than was read may hold any trap past the cut: it counts as set.
  const text = cut ? [kept, '… (the rest of trap -p was not read)'].filter(Boolean).join('\n') : kept;
  if (!text) return { kind: 'none' };
  return hooks.added.length === 0 && !running && !cut ? { kind: 'set', text, startupHooksOnly: true } : { kind: 'set', text };
}

/** Whether the shell has traps that may run while a command does, as {@link readShellTraps} reads them. */
export type ShellTraps = { kind: 'none' } | { kind: 'set'; text: string; startupHooksOnly?: true } | { kind: 'unknown'; standIn?: true };
