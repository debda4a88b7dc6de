/**
 * Which shell an agent session gets, the way VS Code chooses the shell of its own agent terminals
 * (`run_in_terminal`): the first of these that names a shell decides
 * 1. `dsh.terminal.shell` (a path or a name), when the person set it;
 * 2. `chat.tools.terminal.terminalProfile.<os>`'s `path`;
 * 3. the default terminal profile: `terminal.integrated.defaultProfile.<os>` and its
 *    `terminal.integrated.profiles.<os>` entry's `path`;
 * 4. `$SHELL`;
 * then a shell DSH Bridge cannot drive (fish, nu, pwsh, …) or nothing at all gives bash, and the
 * choice says which shell runs and why. Plain Node: the VS Code layer reads the settings.
 */
import { type ShellName, drivenShell } from './session/shellDialect';

export { drivenShell };

/** A terminal profile as VS Code's settings hold it (`path` may list candidates, the first that exists wins in VS Code). */
export interface TerminalProfileSetting {
  path?: string | string[];
  args?: string[] | string;
  source?: string;
}

/** The settings and environment the choice reads, each undefined when unset. */
export interface ShellChoiceInputs {
  /** `dsh.terminal.shell` when the person set it (not its default). */
  configured?: string;
  /** `chat.tools.terminal.terminalProfile.<os>`. */
  agentProfile?: TerminalProfileSetting | null;
  /** `terminal.integrated.defaultProfile.<os>`: a profile's name. */
  defaultProfile?: string | null;
  /** `terminal.integrated.profiles.<os>`. */
  profiles?: Record<string, TerminalProfileSetting | null | undefined> | null;
  /** The extension host's `$SHELL`. */
  envShell?: string;
}

/** Where the shell named came from (see the module comment's order). */
export type ShellSource = 'setting' | 'agentProfile' | 'defaultProfile' | 'SHELL' | 'none';

/** The shell a session gets and why. */
export interface ShellChoice {
  /** The shell that runs. */
  shell: ShellName;
  /** Its executable: the path the source named when it names this shell, else the shell's name (looked up on PATH). */
  executable: string;
  /** Where the decision came from. */
  source: ShellSource;
  /** One sentence for the person and the model: which shell runs and why. */
  why: string;
}

/** The settings text of each source, for the sentence that says why. */
const SOURCE_TEXT: Record<Exclude<ShellSource, 'none'>, string> = {
  setting: 'the dsh.terminal.shell setting',
  agentProfile: 'chat.tools.terminal.terminalProfile (the agent terminal profile)',
  defaultProfile: 'the default terminal profile',
  SHELL: '$SHELL',
};

/** The first path a profile names (VS Code tries a `path` list in order); undefined when none. */
function profilePath(profile: TerminalProfileSetting | null | undefined): string | undefined {
  const p = profile?.path;
  const first = Array.isArray(p) ? p.find((x) => typeof x === 'string' && x.trim() !== '') : p;
  return typeof first === 'string' && first.trim() !== '' ? first : undefined;
}

/** Decides the session's shell from `inputs`, in the order of the module comment. Never throws. */
export function chooseShell(inputs: ShellChoiceInputs): ShellChoice {
  const steps: [Exclude<ShellSource, 'none'>, string | undefined, string][] = [
    ['setting', inputs.configured?.trim() || undefined, ''],
    ['agentProfile', profilePath(inputs.agentProfile), ''],
    [
      'defaultProfile',
      inputs.defaultProfile ? profilePath(inputs.profiles?.[inputs.defaultProfile]) : undefined,
      inputs.defaultProfile ? ` "${inputs.defaultProfile}"` : '',
    ],
    ['SHELL', inputs.envShell?.trim() || undefined, ''],
  ];
  for (const [source, named, detail] of steps) {
    if (named === undefined) continue;
    const from = `${SOURCE_TEXT[source]}${detail}`;
    const shell = drivenShell(named);
    if (shell) return { shell, executable: named, source, why: `${shell} (${named}) from ${from}` };
    return {
      shell: 'bash',
      executable: 'bash',
      source,
      why: `bash: ${from} names ${named}, a shell DSH Bridge cannot drive (it drives bash and zsh)`,
    };
  }
  return { shell: 'bash', executable: 'bash', source: 'none', why: 'bash: no setting, terminal profile or $SHELL names a shell' };
}
