/**
 * What a configured language server may be started from while the agent sandbox is on (plain
 * Node, no `vscode` import).
 *
 * DSH Bridge starts language servers outside the sandbox, with the person's full permissions,
 * while sandboxed commands can write the workspace folders (and the sandbox's temp and storage
 * folders, `allowWrite` folders, the runtime's own). A server started from a file there is a
 * sandbox escape: a sandboxed command writes `./node_modules/.bin/some-server` and the next start
 * runs it unsandboxed. So, while the sandbox is on, a server is not started when any of these lies
 * in a folder sandboxed commands can write (judged by `writableOnTheWay`, src/common/writableFolders.ts:
 * real paths, every symbolic link on the way, `..` taken after the links before it):
 * - its program: `command` resolved as the start resolves it (relative to the workspace folder, or
 *   the first match on PATH);
 * - the interpreter of a script program (its `#!` line; `#!/usr/bin/env NAME` looked up on the
 *   server's PATH), and that interpreter's own, up to {@link MAX_INTERPRETERS} deep;
 * - a file or folder one of `args` names (`node ./server.js`, `--require=/ws/x.js`): an argument, or
 *   the value after `=` of an option, that is absolute, contains a `/`, looks like a file name
 *   (`server.js`) or exists in the working folder. What an interpreter runs is the same escape;
 *   a log file named there is refused too, as the rule cannot tell the two apart;
 * - for a script interpreter (node, python, ruby, perl, php, a shell; by the program's name or its
 *   real file's), its first plain argument as a path from the working folder even when nothing is
 *   there yet (`node server` runs `server.js` once written), and python's `-m MODULE` (python
 *   looks for it in the working folder first).
 * And the server's environment gets a PATH without the folders sandboxed commands can write (and
 * without relative folders, which are looked up from the workspace folder), so that neither the
 * shell that guards it (watchdog.ts) nor the programs the server starts by name come from there.
 *
 * Not covered: code another launcher or a server loads from its working folder, the workspace
 * folder, by its own rules (`npx` taking `node_modules/.bin`, a server loading the workspace's own
 * TypeScript or plugins). The README says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { which, writableOnTheWay, WritablePlace } from '../../common/writableFolders';
import { resolveCommand } from './watchdog';

/** How many `#!` interpreters in a row are followed (Linux itself follows 4). */
const MAX_INTERPRETERS = 4;
/** Bytes of a program read for its `#!` line (Linux reads 256). */
const SHEBANG_BYTES = 256;

/** Why a server is not started: what lies where sandboxed commands can write. */
export class SandboxWritableLaunch extends Error {
  override readonly name = 'SandboxWritableLaunch';
  /**
   * @param what what was refused: `program`, `interpreter` or `argument N` (N 1-based).
   * @param given the path as configured or found (the program after resolving, the interpreter, the argument as resolved).
   * @param place the path on the way that a sandboxed command can change, and the writable folder it lies in.
   */
  constructor(
    readonly what: string,
    readonly given: string,
    readonly place: WritablePlace,
  ) {
    super(
      `its ${what} ${given}${place.path !== given ? ` leads through ${place.path}, which lies` : ' lies'} in the folder ${place.folder}, which sandboxed commands can write`,
    );
  }
}

/** What the server is started with: the program (an absolute path) and the environment. */
export interface LaunchPlan {
  readonly program: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The program and environment a server is started with; see the module comment for the rule.
 * @param command the configured `command`; `args` the configured arguments.
 * @param cwd the server's working folder (absolute; the workspace folder).
 * @param env the server's environment.
 * @param writable absolute folders sandboxed commands can write, or undefined while the agent
 *   sandbox is off (then `command` is only resolved and `env` kept).
 * @throws SandboxWritableLaunch when something the server would run from lies in `writable`;
 *   CommandNotFoundError (watchdog.ts) when `command` does not resolve.
 */
export function planLaunch(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  writable: readonly string[] | undefined,
): LaunchPlan {
  const found = resolveCommand(command, cwd, env);
  if (writable === undefined) return { program: found, env };
  // A relative PATH folder gives a relative program, which the server's start looks up from its working folder.
  const program = path.resolve(cwd, found);
  const refuse = (what: string, given: string, spelled = given) => {
    const place = writableOnTheWay(spelled, writable);
    if (place) throw new SandboxWritableLaunch(what, given, place);
  };
  refuse('program', program);
  const safePath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && path.isAbsolute(dir) && writableOnTheWay(dir, writable) === undefined)
    .join(path.delimiter);
  const safeEnv: NodeJS.ProcessEnv = { ...env, PATH: safePath };
  let script = program;
  for (let depth = 0; depth < MAX_INTERPRETERS; depth++) {
    const interpreter = interpreterOf(script, safeEnv.PATH, env.PATH);
    if (interpreter === undefined) break;
    refuse('interpreter', interpreter);
    script = interpreter;
  }
  args.forEach((arg, i) => {
    const named = namedPath(arg, cwd);
    if (named !== undefined) refuse(`argument ${i + 1} (${JSON.stringify(arg)})`, path.resolve(named), named);
  });
  // An interpreter takes its script (node: also `NAME.js`, `NAME/index.js`) or python's `-m`
  // module from the working folder by a bare name, once a sandboxed command has written it there.
  const interpreter = scriptInterpreter(program);
  if (interpreter !== undefined) {
    const moduleFlag = interpreter === 'python' ? args.indexOf('-m') : -1;
    const at = moduleFlag >= 0 ? moduleFlag + 1 : args.findIndex((arg) => !arg.startsWith('-'));
    const name = args[at];
    if (name !== undefined && !name.startsWith('-')) {
      const what =
        moduleFlag >= 0
          ? `module (-m ${JSON.stringify(name)}), which python looks for in its working folder first,`
          : `script (argument ${at + 1}, ${JSON.stringify(name)})`;
      const spelled = path.isAbsolute(name) ? name : `${cwd}${path.sep}${name}`;
      refuse(what, path.resolve(spelled), spelled);
    }
  }
  return { program, env: safeEnv };
}

/** Interpreters that run a script named by their first plain argument: node (and python's `-m MODULE`) by a bare name too. */
const SCRIPT_INTERPRETERS: ReadonlyArray<[RegExp, string]> = [
  [/^(node|nodejs)$/, 'node'],
  [/^python[0-9.]*$/, 'python'],
  [/^(ruby|perl|php|bash|sh|dash|zsh|ksh)$/, 'other'],
];

/** The kind of script interpreter `program` is, by its name or its real file's name; undefined for others. */
function scriptInterpreter(program: string): string | undefined {
  let real = program;
  try {
    real = fs.realpathSync(program);
  } catch {
    // judged by its name alone
  }
  for (const name of [path.basename(program), path.basename(real)]) {
    const hit = SCRIPT_INTERPRETERS.find(([pattern]) => pattern.test(name));
    if (hit) return hit[1];
  }
  return undefined;
}

/**
 * The interpreter of `file` when it starts with `#!`, as an absolute path: the `#!` path itself,
 * or for `#!/usr/bin/env [options] NAME` (also `env -S`) NAME looked up on `safePath`, else (found
 * only in a folder left out of it) on `fullPath`; undefined for no `#!` line or a NAME on neither.
 */
function interpreterOf(file: string, safePath: string | undefined, fullPath: string | undefined): string | undefined {
  let head: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const buffer = Buffer.alloc(SHEBANG_BYTES);
      head = buffer.subarray(0, fs.readSync(fd, buffer, 0, SHEBANG_BYTES, 0)).toString('latin1');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!head.startsWith('#!')) return undefined;
  const words = head
    .slice(2)
    .split('\n')[0]!
    .trim()
    .split(/[ \t]+/)
    .filter((w) => w !== '');
  const first = words[0];
  if (first === undefined) return undefined;
  if (path.basename(first) !== 'env') return first;
  const name = words.slice(1).find((w) => !w.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  if (name === undefined) return first;
  if (name.includes('/')) return name;
  return which(name, safePath) ?? which(name, fullPath);
}

/**
 * The absolute path `arg` names, or undefined when it names none: the argument itself, or for an
 * option `-x=VALUE` / `--name=VALUE` the value; a plain option (`--stdio`) names nothing. A value
 * names a path when it is absolute, contains a `/`, looks like a file name (`server.js`) or exists
 * in `cwd`; a relative one is taken from `cwd`, spelled as is (its `..` follow links, as a program
 * opening it would).
 */
function namedPath(arg: string, cwd: string): string | undefined {
  let value = arg;
  if (arg.startsWith('-')) {
    const eq = arg.indexOf('=');
    if (eq < 0) return undefined;
    value = arg.slice(eq + 1);
  }
  if (value === '') return undefined;
  const full = path.isAbsolute(value) ? value : `${cwd}${path.sep}${value}`;
  if (path.isAbsolute(value) || value.includes('/') || /^[^\s=]+\.[A-Za-z0-9]{1,8}$/.test(value)) return full;
  try {
    fs.lstatSync(full);
    return full;
  } catch {
    return undefined;
  }
}
