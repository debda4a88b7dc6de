/**
 * The names the session's shell defines as aliases and functions, reported by the shell itself at
 * every prompt (plain Node): a command line's first word that is one of them does not run the
 * program of that name, so no rule for that program may approve it (src/approval/decision.ts).
 *
 * The report is builtins only and shares the traps report's file and its one write at every prompt
 * (markers.ts): no process is started and no other file is opened, so a prompt costs only the two
 * `compgen` calls more. It comes before the traps, after the prompt's number: `\builtin` (the
 * backslash keeps an alias from replacing it) runs `compgen -a` (aliases) and `compgen -A function`
 * (functions), one name per line, with `--functions` between them and `--end` after them; then a
 * line {@link NAMES_DELIMITER} always, then what `trap -p` prints. The section's first line,
 * `--names`, is printed by compgen itself (`compgen -W --names -- --names`), which tells that
 * compgen is there (a bash built without programmable completion has none) without opening a
 * file: without it the section is empty and the names unknown. compgen fails when it lists nothing: `|| \builtin true`
 * keeps that from ending a shell under `set -e`.
 */

/** The line that ends the names section of the report; the traps follow it. */
export const NAMES_DELIMITER = '--dsh-traps';

/** Bytes the names section may take; a longer report's names count as unknown. */
export const NAMES_MAX_BYTES = 256 * 1024;

/** The aliases and functions of the session's shell, or `unknown` when its report is missing, stale, cut or not to be trusted. */
export type ShellNames = { kind: 'known'; aliases: string[]; functions: string[] } | { kind: 'unknown' };

/**
 * The shell code of the names section, for the traps report's group (its output goes to the
 * report's file); `more`, shell code whose lines close the section before its delimiter (the
 * prompt hooks, promptHooks.ts).
 */
export function shellNamesReport(more?: string): string {
  return `\\builtin compgen -W --names -- --names && { \\builtin compgen -a || \\builtin true; \\builtin printf '%s\\n' --functions; \\builtin compgen -A function || \\builtin true; \\builtin printf '%s\\n' --end; }; ${more ? `${more}; ` : ''}\\builtin printf '%s\\n' ${NAMES_DELIMITER}`;
}

/**
 * The report's body (after its first line, the prompt's number) split into the names section and
 * the traps that follow it: at the first {@link NAMES_DELIMITER} line (names never hold a newline,
 * so the first one is the report's own). Without one the whole body is traps and the names are
 * undefined (a report written by another version of the prompt, or one a trap emptied).
 */
export function splitNamesSection(body: string): { names: string | undefined; traps: string } {
  const marker = `${NAMES_DELIMITER}\n`;
  const at = body.startsWith(marker) ? 0 : body.indexOf(`\n${marker}`);
  if (at < 0) return { names: undefined, traps: body };
  const end = at === 0 ? 0 : at + 1;
  return { names: body.slice(0, end), traps: body.slice(end + marker.length) };
}

/**
 * Functions whose presence makes the report untrustworthy: a function named `builtin` would answer
 * the report's `\builtin` and could leave itself out.
 */
const REPORT_BUILTINS = new Set(['builtin', 'compgen', 'printf']);

/**
 * The names the shell reported at prompt `promptSeq` (1-based, the marker's number) from the
 * content of the traps report (markers.ts TRAPS_FILE); `unknown` when the file is missing, from
 * another prompt (the shell no longer writes it: its PROMPT_COMMAND was replaced), its names
 * section is not whole (no delimiter: the file was cut before it, or a trap's report emptied it)
 * or is over {@link NAMES_MAX_BYTES}, or a function stands in for a builtin the report runs.
 */
export function readShellNames(content: string | undefined, promptSeq: number): ShellNames {
  if (content === undefined) return { kind: 'unknown' };
  const newline = content.indexOf('\n');
  if (newline < 0 || Number(content.slice(0, newline)) + 1 !== promptSeq) return { kind: 'unknown' };
  const { names } = splitNamesSection(content.slice(newline + 1));
  if (names === undefined || Buffer.byteLength(names) > NAMES_MAX_BYTES) return { kind: 'unknown' };
  const lines = names.split('\n');
  if (lines[0] !== '--names') return { kind: 'unknown' };
  const split = lines.indexOf('--functions');
  const end = lines.indexOf('--end', split + 1);
  if (split < 0 || end < 0) return { kind: 'unknown' };
  const functions = lines.slice(split + 1, end).filter(Boolean);
  if (functions.some((f) => REPORT_BUILTINS.has(f))) return { kind: 'unknown' };
  return { kind: 'known', aliases: lines.slice(1, split).filter(Boolean), functions };
}
