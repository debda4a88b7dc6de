/**
 * The names the session's shell defines as aliases and functions, reported by the shell itself at
 * every prompt (plain Node): a command line's first word that is one of them does not run the
 * program of that name, so no rule for that program may approve it as written
 * (src/approval/decision.ts). An alias's replacement text is reported too, so that the command is
 * judged as the shell will run it (`ls` under `alias ls='ls --color=auto'`).
 *
 * The report is builtins only and shares the traps report's file and its one write at every prompt
 * (markers.ts): no process is started and no other file is opened. It comes before the traps,
 * after the prompt's number, as lines:
 *
 *     --names                 printed by compgen itself (see below)
 *     NAME ...                every alias (bash `compgen -a`; zsh: regular aliases), one per line
 *     --values
 *     alias NAME='VALUE' ...  the aliases' replacement texts as bash's `alias -p` prints them: VALUE
 *                             single-quoted, a quote in it written '\'', a line end kept
 *     --global / --suffix     (zsh only) global aliases (`alias -g`, replaced in any position) and
 *     NAME ...                suffix aliases (`alias -s`, run for a command word ending in .NAME)
 *     --functions
 *     NAME ...                every function, one per line
 *     --end
 *     --hooks ...             the prompt hooks besides DSH Bridge's (promptHooks.ts), one per line
 *     --dsh-traps             ({@link NAMES_DELIMITER}, always), then what `trap -p` prints
 *
 * In bash `\builtin` (the backslash keeps an alias from replacing it) runs each part. The first
 * line is printed by compgen itself (`compgen -W --names -- --names`), which tells that compgen is
 * there (a bash built without programmable completion has none) without opening a file: without it
 * the section is empty and the names unknown. The list of names comes from `compgen -a`, which
 * still lists aliases when the `alias` builtin is disabled; an alias whose value `alias -p` did not
 * give keeps its name only (its command is unknown). compgen fails when it lists nothing:
 * `|| \builtin true` keeps that from ending a shell under `set -e`.
 *
 * The section is read from its start, part by part: a value may hold a line end and any text (the
 * report's own lines too), and only its quoting tells where it ends.
 */

import { HOOKS_START } from './promptHooks';

/** The line that ends the names section of the report; the traps follow it. */
export const NAMES_DELIMITER = '--dsh-traps';

/** Bytes the names section may take; a longer report's names count as unknown. */
export const NAMES_MAX_BYTES = 256 * 1024;

/**
 * The aliases and functions of the session's shell, or `unknown` when its report is missing,
 * stale, cut or not to be trusted. `aliases`: every alias's name; `aliasValues`: the replacement
 * text of each alias whose value was reported (bash `alias -p`, zsh `$aliases`); `globalAliases`
 * and `suffixAliases`: zsh's `alias -g` and `alias -s` names (empty in bash).
 */
export type ShellNames =
  | {
      kind: 'known';
      aliases: string[];
      aliasValues: Record<string, string>;
      globalAliases: string[];
      suffixAliases: string[];
      functions: string[];
    }
  | { kind: 'unknown' };

/**
 * The shell code of bash's names section, for the traps report's group (its output goes to the
 * report's file); `more`, shell code whose lines close the section before its delimiter (the
 * prompt hooks, promptHooks.ts).
 */
export function shellNamesReport(more?: string): string {
  const line = (text: string) => `\\builtin printf '%s\\n' ${text}`;
  return `\\builtin compgen -W --names -- --names && { \\builtin compgen -a || \\builtin true; ${line('--values')}; \\builtin alias -p || \\builtin true; ${line('--functions')}; \\builtin compgen -A function || \\builtin true; ${line('--end')}; }; ${more ? `${more}; ` : ''}${line(NAMES_DELIMITER)}`;
}

/**
 * The names section read from a report's body, or why it cannot be: `hooks`, the prompt hooks'
 * lines from their {@link HOOKS_START} line on (promptHooks.ts), undefined without them; the traps
 * follow at `end`.
 */
type NamesSection =
  | { kind: 'none' }
  | { kind: 'malformed' }
  | { kind: 'read'; names: Omit<Extract<ShellNames, { kind: 'known' }>, 'kind'> | undefined; hooks: string | undefined; end: number };

/** The hooks part at `at` (a {@link HOOKS_START} line, one line per hook) or the delimiter alone, up to where the traps start. */
function hooksPart(body: string, at: number): { hooks: string | undefined; end: number } | undefined {
  if (body.startsWith(`${NAMES_DELIMITER}\n`, at)) return { hooks: undefined, end: at + NAMES_DELIMITER.length + 1 };
  if (!body.startsWith(`${HOOKS_START}\n`, at)) return undefined;
  const lines = namesUntil(body, at + HOOKS_START.length + 1, [NAMES_DELIMITER]);
  if (!lines) return undefined;
  return { hooks: body.slice(at, lines.next - NAMES_DELIMITER.length - 1), end: lines.next };
}

/** One `alias NAME='VALUE'` record at `at` in `text`: the name, the value and where the record's line ends; undefined when it is not one. */
function aliasRecord(text: string, at: number): { name: string; value: string; end: number } | undefined {
  if (!text.startsWith('alias ', at)) return undefined;
  const eq = text.indexOf("='", at + 6);
  const lineEnd = text.indexOf('\n', at);
  if (eq < 0 || (lineEnd >= 0 && lineEnd < eq)) return undefined;
  // bash writes `alias -- NAME=` for a name that starts with a dash.
  const written = text.slice(at + 6, eq);
  const name = written.startsWith('-- ') ? written.slice(3) : written;
  let value = '';
  let i = eq + 2;
  for (;;) {
    const close = text.indexOf("'", i);
    if (close < 0) return undefined;
    value += text.slice(i, close);
    // '\'' : the quote closed, a backslash-escaped quote, the quote opened again.
    if (text.startsWith("'\\''", close)) {
      value += "'";
      i = close + 4;
      continue;
    }
    if (text[close + 1] !== '\n') return undefined;
    return { name, value, end: close + 2 };
  }
}

/** The lines from `at` up to the first line in `stops`: the names, the stop found and where the text after it starts; undefined without a stop. */
function namesUntil(text: string, at: number, stops: readonly string[]): { names: string[]; stop: string; next: number } | undefined {
  const names: string[] = [];
  for (let i = at; i < text.length; ) {
    const end = text.indexOf('\n', i);
    if (end < 0) return undefined;
    const line = text.slice(i, end);
    if (stops.includes(line)) return { names, stop: line, next: end + 1 };
    if (line) names.push(line);
    i = end + 1;
  }
  return undefined;
}

/** The names section at the start of a report's body (see the module comment for its lines). */
function readNamesSection(body: string): NamesSection {
  if (!body.startsWith('--names\n')) {
    // No names (no compgen, or a name holding a line end): the hooks, if any, and the delimiter.
    const rest = hooksPart(body, 0);
    return rest ? { kind: 'read', names: undefined, ...rest } : { kind: 'none' };
  }
  const aliases = namesUntil(body, '--names\n'.length, ['--values']);
  if (!aliases) return { kind: 'malformed' };
  const aliasValues: Record<string, string> = {};
  const listed = new Set(aliases.names);
  let at = aliases.next;
  for (let record = aliasRecord(body, at); record; record = aliasRecord(body, at)) {
    // A name `compgen -a` did not list is not an alias of this shell: the record is not trusted.
    if (!listed.has(record.name)) return { kind: 'malformed' };
    // Defined, not assigned: an alias named `__proto__` is a name like any other.
    Object.defineProperty(aliasValues, record.name, { value: record.value, enumerable: true, writable: true, configurable: true });
    at = record.end;
  }
  const kinds: Record<string, string[]> = { '--global': [], '--suffix': [] };
  const stops = ['--global', '--suffix', '--functions'];
  // Nothing stands between the last record and the next part's line.
  let part = namesUntil(body, at, stops);
  if (!part || part.names.length > 0) return { kind: 'malformed' };
  while (part.stop !== '--functions') {
    const kind = part.stop;
    part = namesUntil(body, part.next, stops);
    if (!part) return { kind: 'malformed' };
    kinds[kind] = part.names;
  }
  const functions = namesUntil(body, part.next, ['--end']);
  const rest = functions && hooksPart(body, functions.next);
  if (!functions || !rest) return { kind: 'malformed' };
  return {
    kind: 'read',
    names: {
      aliases: aliases.names,
      aliasValues,
      globalAliases: kinds['--global']!,
      suffixAliases: kinds['--suffix']!,
      functions: functions.names,
    },
    ...rest,
  };
}

/**
 * The report's body (after its first line, the prompt's number) split into the names section, the
 * prompt hooks' lines that close it (`hooks`, read from where the section puts them, never from a
 * value inside it) and the traps that follow it. `names` is undefined when the body has no names section (a report
 * written by another version of the prompt: the whole body is traps); `traps` is undefined when the
 * section is there but not whole or not well formed, so that where the traps start is not known.
 */
export function splitNamesSection(body: string): { names: string | undefined; hooks: string | undefined; traps: string | undefined } {
  const section = readNamesSection(body);
  if (section.kind === 'none') return { names: undefined, hooks: undefined, traps: body };
  if (section.kind === 'malformed') return { names: body, hooks: undefined, traps: undefined };
  return { names: body.slice(0, section.end), hooks: section.hooks, traps: body.slice(section.end) };
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
 * section is not whole or not well formed (the file was cut in it, or a trap's report emptied it)
 * or is over {@link NAMES_MAX_BYTES}, or a function stands in for a builtin the report runs.
 */
export function readShellNames(content: string | undefined, promptSeq: number): ShellNames {
  if (content === undefined) return { kind: 'unknown' };
  const newline = content.indexOf('\n');
  if (newline < 0 || Number(content.slice(0, newline)) + 1 !== promptSeq) return { kind: 'unknown' };
  const body = content.slice(newline + 1);
  const section = readNamesSection(body);
  if (section.kind !== 'read' || section.names === undefined || Buffer.byteLength(body.slice(0, section.end)) > NAMES_MAX_BYTES)
    return { kind: 'unknown' };
  if (section.names.functions.some((f) => REPORT_BUILTINS.has(f))) return { kind: 'unknown' };
  return { kind: 'known', ...section.names };
}
