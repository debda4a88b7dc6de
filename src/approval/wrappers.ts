/**
 * Programs that run another program named in their arguments (`env`, `sudo`, `xargs`, `timeout`,
 * …), shells that run code given as text (`bash -c`, `eval`) and interpreters that run code the
 * line does not show (`bash script.sh`, `source`, `python3`): where in a command's words the
 * command behind them starts (plain Node). Option syntax from each program's manual page
 * (GNU coreutils env, nice, nohup, timeout; sudo(8); doas(1); GNU findutils xargs; bash(1)).
 */

/** How a wrapper's words lead to the command it runs. */
export interface WrapperSpec {
  /** Options followed by a value in the next word. */
  withValue: ReadonlySet<string>;
  /** Options that stand alone. Any other option makes the command behind unknown. */
  flags: ReadonlySet<string>;
  /** Long options `--name=value` accepted, by name (before `=`). */
  longWithValue?: ReadonlySet<string>;
  /** Words before the command that are not options: `timeout`'s duration. */
  positional?: number;
  /** `NAME=value` words before the command set its environment (`env`). */
  assignments?: boolean;
  /** The wrapper itself is a command the rules judge too (it changes who or how the program runs: `sudo`, `xargs`, `exec`). */
  judgedItself: boolean;
  /** The command behind gets arguments the line does not show (`xargs` reads them from its input). */
  addsArguments?: boolean;
  /** A short option that takes its value attached (`-i{}` for xargs), by letter. */
  attachedValue?: ReadonlySet<string>;
  /** Options that mean the command behind is not known from the line (`env -S` splits a string). */
  refused?: ReadonlySet<string>;
}

const set = (...items: string[]) => new Set(items);

/** The wrappers by program name (the last part of the program word's path). */
export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  [
    'env',
    {
      withValue: set('-u', '--unset', '-C', '--chdir'),
      flags: set('-i', '--ignore-environment', '-0', '--null', '-v', '--debug', '-'),
      longWithValue: set('--unset', '--chdir'),
      assignments: true,
      judgedItself: false,
      refused: set('-S', '--split-string'),
    },
  ],
  ['command', { withValue: set(), flags: set('-p', '-v', '-V'), judgedItself: false }],
  ['builtin', { withValue: set(), flags: set(), judgedItself: false }],
  ['nohup', { withValue: set(), flags: set(), judgedItself: false }],
  ['time', { withValue: set(), flags: set('-p'), judgedItself: false }],
  ['nice', { withValue: set('-n', '--adjustment'), flags: set(), longWithValue: set('--adjustment'), judgedItself: false }],
  [
    'timeout',
    {
      withValue: set('-s', '--signal', '-k', '--kill-after'),
      flags: set('--foreground', '--preserve-status', '-v', '--verbose'),
      longWithValue: set('--signal', '--kill-after'),
      positional: 1,
      judgedItself: false,
    },
  ],
  [
    'sudo',
    {
      withValue: set(
        '-u',
        '--user',
        '-g',
        '--group',
        '-h',
        '--host',
        '-p',
        '--prompt',
        '-C',
        '--close-from',
        '-D',
        '--chdir',
        '-r',
        '--role',
        '-t',
        '--type',
        '-U',
        '--other-user',
        '-T',
        '--command-timeout',
        '-R',
        '--chroot',
      ),
      flags: set(
        '-E',
        '--preserve-env',
        '-H',
        '--set-home',
        '-n',
        '--non-interactive',
        '-S',
        '--stdin',
        '-b',
        '--background',
        '-i',
        '--login',
        '-s',
        '--shell',
        '-P',
        '--preserve-groups',
        '-A',
        '--askpass',
        '-B',
        '--bell',
        '-k',
        '--reset-timestamp',
        '-N',
        '--no-update',
      ),
      longWithValue: set(
        '--user',
        '--group',
        '--host',
        '--prompt',
        '--close-from',
        '--chdir',
        '--role',
        '--type',
        '--other-user',
        '--command-timeout',
        '--chroot',
        '--preserve-env',
      ),
      judgedItself: true,
    },
  ],
  ['doas', { withValue: set('-u', '-C'), flags: set('-n', '-s', '-L'), judgedItself: true }],
  ['exec', { withValue: set('-a'), flags: set('-c', '-l', '-cl', '-lc'), judgedItself: true }],
  [
    'xargs',
    {
      withValue: set(
        '-a',
        '--arg-file',
        '-d',
        '--delimiter',
        '-E',
        '-I',
        '-L',
        '--max-lines',
        '-n',
        '--max-args',
        '-P',
        '--max-procs',
        '-s',
        '--max-chars',
        '--process-slot-var',
      ),
      flags: set(
        '-0',
        '--null',
        '-r',
        '--no-run-if-empty',
        '-t',
        '--verbose',
        '-p',
        '--interactive',
        '-x',
        '--exit',
        '-o',
        '--open-tty',
        '--show-limits',
      ),
      longWithValue: set(
        '--arg-file',
        '--delimiter',
        '--max-lines',
        '--max-args',
        '--max-procs',
        '--max-chars',
        '--process-slot-var',
        '--eof',
        '--replace',
      ),
      attachedValue: set('e', 'i', 'l'),
      judgedItself: true,
      addsArguments: true,
    },
  ],
]);

/** Shells whose `-c` code is text on the line, parsed and judged like the line itself. */
export const SHELLS: ReadonlySet<string> = set('bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox');

/** Shell options followed by a value in the next word. */
const SHELL_OPTIONS_WITH_VALUE = set('-o', '+o', '-O', '+O', '--rcfile', '--init-file');

/**
 * Programs that run code the line does not show (a script file, their input, code in their own
 * language): a rule approves them only when it names more than the program itself.
 */
export const INTERPRETERS: ReadonlySet<string> = set(
  ...SHELLS,
  'source',
  '.',
  'fish',
  'csh',
  'tcsh',
  'python',
  'python2',
  'python3',
  'node',
  'nodejs',
  'deno',
  'bun',
  'perl',
  'ruby',
  'php',
  'lua',
  'pwsh',
  'Rscript',
  'osascript',
);

/** The last part of a program word's path (`/usr/bin/env` → `env`), with a trailing `.exe` kept. */
export function programName(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash < 0 ? program : program.slice(slash + 1);
}

/** Where a wrapper's command starts among `words` (values, the wrapper at 0), or why it cannot be told. */
export type CommandStart = { index: number; assignments: string[] } | { refused: string };

/**
 * The index of the first word of the command `spec`'s wrapper runs (`words.length` when it runs
 * none, as `env` alone), with the `NAME=value` words it sets before it (env); `refused` naming the
 * option when an option is not one the wrapper is known to take or makes the command unknown.
 */
export function wrappedCommandStart(spec: WrapperSpec, words: readonly string[]): CommandStart {
  let i = 1;
  let positional = spec.positional ?? 0;
  const assignments: string[] = [];
  while (i < words.length) {
    const w = words[i]!;
    if (w === '--') {
      i++;
      break;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      assignments.push(w.slice(0, w.indexOf('=')));
      i++;
      continue;
    }
    const isOption = w.startsWith('-') && (w !== '-' || spec.flags.has(w));
    if (!isOption) {
      if (positional > 0) {
        positional--;
        i++;
        continue;
      }
      break;
    }
    const name = w.includes('=') ? w.slice(0, w.indexOf('=')) : w;
    if (spec.refused?.has(name) || (spec.refused && [...spec.refused].some((r) => r.length === 2 && w.startsWith(r))))
      return { refused: w };
    if (w.includes('=') && spec.longWithValue?.has(name)) i += 1;
    else if (spec.withValue.has(w)) i += 2;
    else if (spec.flags.has(w)) i += 1;
    else if (/^-\d+$/.test(w) && programNameIs(spec, 'nice')) i += 1;
    else if (w.length > 2 && !w.startsWith('--') && spec.withValue.has(w.slice(0, 2))) i += 1;
    else if (w.length > 2 && !w.startsWith('--') && spec.attachedValue?.has(w[1]!)) i += 1;
    else if (/^-[A-Za-z]+$/.test(w) && [...w.slice(1)].every((c) => spec.flags.has(`-${c}`))) i += 1;
    else return { refused: w };
  }
  return { index: Math.min(i, words.length), assignments };
}

function programNameIs(spec: WrapperSpec, name: string): boolean {
  return WRAPPERS.get(name) === spec;
}

/**
 * For a shell's words (the shell at 0): the index of the code word of `-c` (`bash -ec 'code'`,
 * `sh -c -- 'code'`), undefined when the shell runs no `-c` code (a script file, its input), or
 * `refused` naming an option whose meaning is not known.
 */
export function shellCodeIndex(words: readonly string[]): number | undefined | { refused: string } {
  let i = 1;
  let code = false;
  while (i < words.length) {
    const w = words[i]!;
    if (w === '--' || w === '-') {
      i++;
      break;
    }
    if (!w.startsWith('-') && !w.startsWith('+')) break;
    if (SHELL_OPTIONS_WITH_VALUE.has(w)) {
      i += 2;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(w)) {
      if (w.startsWith('-') && w.includes('c')) code = true;
      i++;
      continue;
    }
    if (/^--[a-z-]+$/.test(w)) {
      i++;
      continue;
    }
    return { refused: w };
  }
  if (!code) return undefined;
  return i < words.length ? i : { refused: '-c without code' };
}
