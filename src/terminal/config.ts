import type { SecretPatternSetting } from './secrets/secretRedactor';
import { errorMessage } from '../common/errorMessage';
import { integerProblem } from '../common/integerInput';

/**
 * Terminal settings with their defaults and the rules between them. Plain Node: the VS Code layer
 * reads `dsh.terminal.*` and hands the values here; a test checks that package.json agrees.
 */

/** Timing and bounds of the pty-bash backend. Times in ms, sizes in UTF-8 bytes or lines. */
export interface TerminalConfig {
  /**
   * The shell of agent sessions (a path or a name on PATH; bash or zsh), or empty: follow VS Code's
   * agent shell (shellChoice.ts: the agent terminal profile, the default terminal profile, $SHELL).
   * A backend starts it when it names the backend's shell, else its own shell's name.
   */
  shell: string;
  /** How often readiness is evaluated during a send. */
  pollIntervalMs: number;
  /**
   * Quiet that confirms a wait: a blocked read of the PTY counts once it lasted this long with no
   * output. After the prompt marker it is required only where the foreground process group cannot
   * be read (no /proc) or the send typed several lines read one at a time (readiness.ts). Must be
   * ≥ pollIntervalMs.
   */
  promptGraceMs: number;
  /** Delay after the write before the /proc probe may report a program waiting for input. */
  probeStartDelayMs: number;
  /** Silence after which a send returns `inferred_idle`. */
  quietThresholdMs: number;
  /** Absolute limit of a send without its own `timeoutMs`. */
  defaultTimeoutMs: number;
  /** Limit for a new shell to reach its first controlled prompt. */
  openTimeoutMs: number;
  /** Scrollback bound in lines (oldest lines go first); at most TERMINAL_CONFIG_MAXIMA.retainedLines. */
  retainedLines: number;
  /** Scrollback bound in bytes (applied after the line bound); at most TERMINAL_CONFIG_MAXIMA.retainedBytes. */
  retainedBytes: number;
  /** Cap of every read and of every send's viewport; ≤ retainedBytes and ≤ TERMINAL_CONFIG_MAXIMA.maxReadBytes. */
  maxReadBytes: number;
  /** Environment applied over the defaults of every session; `null` removes a variable. */
  env: Record<string, string | null>;
  /** Commands kept in each session's command record (the newest); at most TERMINAL_CONFIG_MAXIMA.historySize. */
  historySize: number;
  /**
   * Sessions one owner (an MCP client, another extension, the Language Model Tools) may have open
   * or opening; one more is refused (LIMIT_REACHED). At most TERMINAL_CONFIG_MAXIMA.maxSessionsPerOwner.
   */
  maxSessionsPerOwner: number;
  /**
   * Secrets in what an agent reads are replaced by `[redacted: <kind>]` (secrets/secretRedactor.ts);
   * false passes output unchanged, and every terminal tool result says so.
   */
  redactSecrets: boolean;
  /** The person's own secret patterns: a label and a JavaScript regular expression each (at most MAX_SECRET_PATTERNS). */
  secretPatterns: SecretPatternSetting[];
}

export const DEFAULT_TERMINAL_CONFIG: Readonly<TerminalConfig> = Object.freeze({
  shell: '',
  pollIntervalMs: 25,
  promptGraceMs: 50,
  probeStartDelayMs: 150,
  quietThresholdMs: 30_000,
  defaultTimeoutMs: 120_000,
  openTimeoutMs: 30_000,
  retainedLines: 10_000,
  retainedBytes: 4 * 1024 * 1024,
  maxReadBytes: 256 * 1024,
  env: {},
  historySize: 1000,
  maxSessionsPerOwner: 16,
  redactSecrets: true,
  secretPatterns: [],
});

/** Most patterns in `dsh.terminal.secretPatterns`; each pattern at most MAX_SECRET_PATTERN_LENGTH characters, each label at most 60. */
export const MAX_SECRET_PATTERNS = 100;
export const MAX_SECRET_PATTERN_LENGTH = 1000;

/** The problems of a `secretPatterns` value (empty when it is valid). */
function secretPatternProblems(value: unknown): string[] {
  const valid =
    'an array of {"label": "ACME key", "pattern": "acme_[A-Za-z0-9]{32}"} (a JavaScript regular expression; its group 1, when it has one, is the secret)';
  if (!Array.isArray(value)) return [`secretPatterns must be ${valid} (got ${JSON.stringify(value)})`];
  if (value.length > MAX_SECRET_PATTERNS) return [`secretPatterns holds at most ${MAX_SECRET_PATTERNS} patterns (got ${value.length})`];
  const problems: string[] = [];
  value.forEach((entry: unknown, i) => {
    const e = entry as Partial<SecretPatternSetting> | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e.label !== 'string' ||
      !e.label.trim() ||
      e.label.length > 60 ||
      typeof e.pattern !== 'string' ||
      !e.pattern
    ) {
      problems.push(
        `secretPatterns[${i}] must be {"label": <1–60 characters>, "pattern": <regular expression>}: ${valid} (got ${JSON.stringify(entry)})`,
      );
      return;
    }
    if (e.pattern.length > MAX_SECRET_PATTERN_LENGTH) {
      problems.push(`secretPatterns[${i}].pattern must be at most ${MAX_SECRET_PATTERN_LENGTH} characters (got ${e.pattern.length})`);
      return;
    }
    try {
      new RegExp(e.pattern, 'g');
    } catch (error) {
      problems.push(`secretPatterns[${i}].pattern is not a valid JavaScript regular expression: ${errorMessage(error)}`);
    }
  });
  return problems;
}

/**
 * Environment that keeps common tools from waiting on a human: pagers print, editors return at
 * once, git and apt do not prompt. Settings override each entry (`null` removes it).
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: 'cat',
  GIT_EDITOR: ':',
  GIT_TERMINAL_PROMPT: '0',
  DEBIAN_FRONTEND: 'noninteractive',
});

/**
 * Upper bounds of the scrollback and read sizes, per session: past them one session could hold
 * hundreds of MiB of the extension host's memory, or one tool result flood the model's context.
 * package.json declares the same numbers as each setting's `maximum`.
 */
export const TERMINAL_CONFIG_MAXIMA = Object.freeze({
  /** Lines of scrollback. */
  retainedLines: 1_000_000,
  /** Bytes of scrollback: 256 MiB. */
  retainedBytes: 256 * 1024 * 1024,
  /** Bytes of one read page or send viewport: 16 MiB. */
  maxReadBytes: 16 * 1024 * 1024,
  /** Commands in a session's command record (each at most 1000 characters of command line). */
  historySize: 10_000,
  /** Sessions per owner: each holds a shell, its scrollback (up to retainedBytes) and a panel terminal. */
  maxSessionsPerOwner: 256,
});

/** Longest delay Node's timers take (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A configuration that breaks a rule; `problems` names each setting and the rule. */
export class TerminalConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid terminal configuration: ${problems.join('; ')}`);
    this.name = 'TerminalConfigError';
  }
}

/**
 * Fills defaults and checks every rule, reporting all problems at once.
 * @throws TerminalConfigError naming each bad setting, its value and what is valid.
 */
export function resolveTerminalConfig(input: Partial<TerminalConfig> = {}): TerminalConfig {
  const config: TerminalConfig = { ...DEFAULT_TERMINAL_CONFIG, ...stripUndefined(input) };
  const problems: string[] = [];
  const positive: (keyof TerminalConfig)[] = [
    'pollIntervalMs',
    'promptGraceMs',
    'probeStartDelayMs',
    'quietThresholdMs',
    'defaultTimeoutMs',
    'openTimeoutMs',
    'retainedLines',
    'retainedBytes',
    'maxReadBytes',
    'historySize',
    'maxSessionsPerOwner',
  ];
  const units: Partial<Record<keyof TerminalConfig, string>> = {
    retainedLines: 'lines',
    historySize: 'commands',
    maxSessionsPerOwner: 'sessions',
    retainedBytes: 'bytes',
    maxReadBytes: 'bytes',
  };
  for (const key of positive) {
    const timer = key.endsWith('Ms');
    const max = timer ? MAX_TIMER_MS : TERMINAL_CONFIG_MAXIMA[key as keyof typeof TERMINAL_CONFIG_MAXIMA];
    const problem = integerProblem(config[key], `dsh.terminal.${key}`, 1, max, `in ${timer ? 'milliseconds' : units[key]}`);
    if (problem) problems.push(problem);
  }
  if (typeof config.shell !== 'string')
    problems.push(
      `shell must be a string: bash or zsh (a path or a name on PATH), or empty to follow VS Code's agent terminal profile (got ${JSON.stringify(config.shell)})`,
    );
  if (config.promptGraceMs < config.pollIntervalMs) {
    problems.push(
      `promptGraceMs (${config.promptGraceMs}) must be ≥ pollIntervalMs (${config.pollIntervalMs}): at least one readiness poll has to run inside the grace window`,
    );
  }
  if (config.maxReadBytes > config.retainedBytes) {
    problems.push(`maxReadBytes (${config.maxReadBytes}) must be ≤ retainedBytes (${config.retainedBytes})`);
  }
  if (config.quietThresholdMs <= config.promptGraceMs) {
    problems.push(`quietThresholdMs (${config.quietThresholdMs}) must be > promptGraceMs (${config.promptGraceMs})`);
  }
  for (const [name, value] of Object.entries(config.env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) problems.push(`env: ${JSON.stringify(name)} is not a valid variable name`);
    if (value !== null && typeof value !== 'string') problems.push(`env.${name} must be a string or null`);
  }
  if (typeof config.redactSecrets !== 'boolean')
    problems.push(`redactSecrets must be true or false (got ${JSON.stringify(config.redactSecrets)})`);
  problems.push(...secretPatternProblems(config.secretPatterns));
  if (problems.length) throw new TerminalConfigError(problems);
  return config;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
