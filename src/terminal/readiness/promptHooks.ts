/**
 * The prompt hooks report: the code the session's shell runs around every command besides DSH
 * Bridge's own, as the shell reports it at every prompt in the traps report's one write
 * (shellTraps.ts): bash's PROMPT_COMMAND entries and a PS0, PS1 or PS2 other than the controlled
 * prompt's, zsh's `precmd` and `preexec` hooks. A command confirmed earlier may add one, and it
 * then runs unseen around every later command, so a confirmation names them as it names traps.
 *
 * The section comes after the names section's own lines (shellNames.ts) and before its delimiter:
 * a line {@link HOOKS_START}, then one line per hook, `<where> <word>`, where `<where>` is a name
 * such as `PROMPT_COMMAND` or `PS0` and `<word>` the hook's text as the shell's `printf %q` quotes
 * it (one line whatever the text holds). Plain Node.
 */
import { shellQuote } from '../../common/shellQuote';

/** The line that starts the hooks section. */
export const HOOKS_START = '--hooks';

/**
 * A hook line: where it runs (a name: letters, digits, `_`; with `=` before it, a value kept
 * when the startup files had run) and its text quoted by `printf %q`.
 */
const HOOK_LINE = /^(=?)([A-Za-z_][A-Za-z0-9_]*) (.*)$/;

/** The hooks the shell reported: those its startup files set up, and those added since. */
export interface PromptHooks {
  /** Hooks present when the session's startup files had run (the person's own configuration). */
  startup: string[];
  /** Hooks added since, by a command the session ran. */
  added: string[];
}

/**
 * The hooks part of a report (shellNames.ts splitNamesSection's `hooks`), each as
 * `<where>: <text>` with the text single-quoted as a person reads it (`PROMPT_COMMAND: 'touch x'`),
 * split into the startup files' and those added since: a hook line `<where> <word>` is the startup
 * files' when a line `=<where> <word>` (the value kept read-only when startup ended) says so. An
 * empty text (a hook emptied, or the entry that was DSH Bridge's own) is left out. Undefined when
 * the section has no hooks part (a shell that does not report them, or a report cut before).
 */
export function readPromptHooks(names: string | undefined): PromptHooks | undefined {
  if (names === undefined) return undefined;
  const lines = names.split('\n');
  const start = lines.indexOf(HOOKS_START);
  if (start < 0) return undefined;
  const atStartup = new Set<string>();
  const hooks: { where: string; word: string }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line) continue;
    const m = HOOK_LINE.exec(line);
    if (!m) hooks.push({ where: '', word: line });
    else if (m[1]) atStartup.add(`${m[2]} ${m[3]}`);
    else hooks.push({ where: m[2] ?? '', word: m[3] ?? '' });
  }
  const result: PromptHooks = { startup: [], added: [] };
  for (const { where, word } of hooks) {
    if (!where) {
      result.added.push(word);
      continue;
    }
    const text = unquoteShellWord(word);
    if (text === '') continue;
    const shown = `${where}: ${text === undefined ? word : shellQuote(text)}`;
    (atStartup.has(`${where} ${word}`) ? result.startup : result.added).push(shown);
  }
  return result;
}

/** ANSI-C escapes of `$'…'` (bash(1), QUOTING) that `printf %q` writes. */
const ANSI_C: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * The text of one shell word as `printf %q` writes it in bash or zsh: backslash-escaped
 * characters, `'…'` and `$'…'` (ANSI-C: `\n`, `\e`, octal `\NNN`, `\xHH`) pieces, concatenated.
 * Undefined for a word that does not read so (an unclosed quote, an unknown escape).
 */
export function unquoteShellWord(word: string): string | undefined {
  const bytes: number[] = [];
  const add = (s: string) => bytes.push(...Buffer.from(s, 'utf8'));
  let i = 0;
  while (i < word.length) {
    const c = word[i] as string;
    if (c === '\\') {
      if (i + 1 >= word.length) return undefined;
      add(word[i + 1] as string);
      i += 2;
    } else if (c === "'") {
      const end = word.indexOf("'", i + 1);
      if (end < 0) return undefined;
      add(word.slice(i + 1, end));
      i = end + 1;
    } else if (c === '$' && word[i + 1] === "'") {
      i += 2;
      for (;;) {
        if (i >= word.length) return undefined;
        const d = word[i] as string;
        if (d === "'") break;
        if (d !== '\\') {
          add(d);
          i++;
          continue;
        }
        const e = word[i + 1];
        if (e === undefined) return undefined;
        const octal = /^[0-7]{1,3}/.exec(word.slice(i + 1));
        const hex = e === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(word.slice(i + 2)) : null;
        if (octal) {
          bytes.push(parseInt(octal[0], 8) & 0xff);
          i += 1 + octal[0].length;
        } else if (hex) {
          bytes.push(parseInt(hex[0], 16));
          i += 2 + hex[0].length;
        } else if (ANSI_C[e] !== undefined) {
          add(ANSI_C[e]);
          i += 2;
        } else {
          return undefined;
        }
      }
      i++;
    } else {
      add(c);
      i++;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * bash's hooks section (a line {@link HOOKS_START}, then a line per hook), for the traps report's
 * group: each of PS0, PS1 and PS2 whose value is not the controlled prompt's (held in the
 * read-only `__dsh_ps0`, `__dsh_ps1`, `__dsh_ps2`), then every PROMPT_COMMAND entry with DSH
 * Bridge's own (the read-only `__dsh_pe`) cut from its end: an entry that was only that prints
 * empty and is left out; on bash before 5.1, where PROMPT_COMMAND is one string, the person's
 * part before it remains. Before them, as `=PROMPT_COMMAND` lines, the entries the startup files
 * left (the read-only `__dsh_pc0`). Builtins only, each behind `\builtin` (an alias cannot replace it; a
 * function named builtin makes the whole report unknown, see controlledPrompt.ts).
 */
export function bashPromptHooksReport(): string {
  const ps = ['PS0', 'PS1', 'PS2'].map(
    (v) => `[[ \${${v}-} == "$__dsh_${v.toLowerCase()}" ]] || \\builtin printf '${v} %q\\n' "\${${v}-}"`,
  );
  return [
    `\\builtin printf '%s\\n' ${HOOKS_START}`,
    ...ps,
    `\\builtin printf '=PROMPT_COMMAND %q\\n' "\${__dsh_pc0[@]}"`,
    `\\builtin printf 'PROMPT_COMMAND %q\\n' "\${PROMPT_COMMAND[@]/%"$__dsh_pe"/}"`,
  ].join('; ');
}

/**
 * zsh's hooks section, for the traps report's function (run under `emulate -L zsh`): every
 * `precmd_functions` and `preexec_functions` entry but DSH Bridge's own (`__dsh_quiet`,
 * `__dsh_precmd`, `__dsh_preexec`), then the bodies of the functions named `precmd` and `preexec`
 * when defined (zsh calls them before each prompt and before each command; zshmisc(1), SPECIAL
 * FUNCTIONS). zsh's `printf %q` quotes each. Before them, as `=<name>` lines, those the startup
 * files left (the read-only `__dsh_pre0`, `__dsh_exe0`, `__dsh_precmd0`, `__dsh_preexec0`).
 */
export function zshPromptHooksReport(): string {
  return [
    `builtin printf '%s\\n' ${HOOKS_START}`,
    `builtin printf '=precmd_functions %q\\n' \${__dsh_pre0}`,
    `builtin printf '=preexec_functions %q\\n' \${__dsh_exe0}`,
    ...['precmd', 'preexec'].map((f) => `[[ -n \${__dsh_${f}0} ]] && builtin printf '=${f} %q\\n' "\${__dsh_${f}0}"`),
    `builtin printf 'precmd_functions %q\\n' \${precmd_functions:#(__dsh_quiet|__dsh_precmd)}`,
    `builtin printf 'preexec_functions %q\\n' \${preexec_functions:#__dsh_preexec}`,
    ...['precmd', 'preexec'].map((f) => `(( \${+functions[${f}]} )) && builtin printf '${f} %q\\n' "\${functions[${f}]}"`),
  ].join('; ');
}
