/**
 * The shapes of auto approval (plain Node, no `vscode` import): what a command line holds once
 * parsed (its sub-commands, the files it writes, what keeps it from being judged), the person's
 * rules, and the decision for one line. The rules follow VS Code's `chat.tools.terminal.autoApprove`
 * (see docs/auto-approve.md); where DSH Bridge is stricter it says so here.
 */

/** One command that will run when the line runs (a side of `&&`, a body of a loop, the code of `bash -c`, …). */
export interface SubCommand {
  /** The command's text as written on the line (from its program word to its last argument; redirections left out). */
  text: string;
  /** The words with their quotes removed, joined by one space; a part decided when it runs is kept as written. */
  words: string;
  /** The program word, quotes removed (`rm` for `\rm` and `"rm"`). */
  program: string;
  /**
   * True when an argument's value is decided when the command runs (a `$var`, `$( )`, a glob, a
   * brace expansion, `$'…'`): it may turn into an option a denying rule names.
   */
  unknownArguments: boolean;
  /**
   * True when the program runs code the line does not show: an interpreter (`bash script.sh`,
   * `python3 x.py`, `source env.sh`, `bash` reading its input): a rule approves it only when
   * it names more than the program (`"bash bin/test.sh"`), never the program alone.
   */
  runsUnseenCode: boolean;
  /**
   * True when the session's shell expands an alias in the program word: the first word of a simple
   * command the shell itself runs (the line, `eval`'s code), written without quotes or backslash.
   * False (or absent) behind a wrapper (`sudo ll`), in another shell's `-c` code, for `\ls`.
   */
  aliasable?: boolean;
}

/** A redirection that writes a file (`>`, `>>`, `&>`, `>|`, `<>`), with its target as written and, when literal, as a path. */
export interface FileWrite {
  /** The redirection as written (`> out.txt`). */
  text: string;
  /** The target with quotes removed; undefined when it is decided when the command runs (`> "$f"`). */
  target: string | undefined;
}

/** Why a line cannot be auto approved whatever the rules say, with the part of the line it is about. */
export interface Blocker {
  /** What was found, as a clause: "the program is decided when the line runs". */
  reason: string;
  /** The part of the line it is about, as written (may be empty). */
  text: string;
}

/** What parsing a command line found. */
export interface CommandLineAnalysis {
  subCommands: SubCommand[];
  fileWrites: FileWrite[];
  blockers: Blocker[];
}

/** One auto-approve rule: a settings key with its value. */
export interface ApprovalRule {
  /** The settings key as written: a command prefix (`git status`) or a regular expression (`/^git (status|show)\b/i`). */
  key: string;
  /** True approves, false denies (asks every time). */
  approve: boolean;
  /** Matched against the whole command line instead of each sub-command. */
  matchCommandLine: boolean;
  /** Where the rule comes from: VS Code's defaults or the person's settings. */
  source: 'default' | 'settings' | 'npm-script';
}

/** What the decision needs besides the line: the rules, the session, the workspace. */
export interface ApprovalContext {
  rules: ApprovalRule[];
  /** The shell's folder now (an absolute path), or undefined when it cannot be read. */
  cwd: string | undefined;
  /** The workspace folders (absolute paths) for `blockDetectedFileWrites: outsideWorkspace`. */
  workspaceFolders: string[];
  /** `chat.tools.terminal.blockDetectedFileWrites`. */
  blockFileWrites: 'never' | 'outsideWorkspace' | 'all';
  /** Script names of the workspace's package.json files when `autoApproveWorkspaceNpmScripts` is on; empty otherwise. */
  npmScripts: string[];
  /**
   * Names whose command the line does not show: the session's functions, and its aliases whose
   * replacement text is not known. A sub-command running one is never approved by the rule for the
   * program of that name.
   */
  shellNames: string[];
  /**
   * The session's aliases whose replacement text is known (name → text): a sub-command where the
   * shell expands one is judged as the text it expands to (bash(1), ALIASES).
   */
  aliases?: Record<string, string>;
  /** zsh's global aliases (`alias -g`), replaced wherever they stand as a word: a line holding one is not approved. */
  globalAliases?: string[];
  /** zsh's suffix aliases (`alias -s`): a program word ending in `.NAME` runs the alias's command. */
  suffixAliases?: string[];
}

/** How one sub-command fared against the rules. */
export type SubCommandVerdict =
  | { result: 'approved'; rule: ApprovalRule }
  /** `why`: what made the rule's command out of the line's, e.g. an alias's text. */
  | { result: 'denied'; rule: ApprovalRule; why?: string }
  /**
   * No rule approves it; `why` says what kept it when a rule matched but does not count. `cause`:
   * its program is an alias or function of the session (`alias`), or an argument decided when it
   * runs could be what a denying rule denies (`argument`): neither a rule for the whole line
   * approves; or an interpreter's rule names only the program (`interpreter`).
   */
  | { result: 'unmatched'; why?: string; cause?: 'alias' | 'argument' | 'interpreter' };

/** The decision for one command line. */
export interface LineDecision {
  /** True when the rules approve the whole line (no confirmation needed). */
  approved: boolean;
  /** The rules that approved it (every one that counted, in line order), when approved. */
  rules: ApprovalRule[];
  /** Why not, one clause per reason, naming the sub-commands no rule approved and the rules that denied. Empty when approved. */
  reasons: string[];
  /** The sub-commands found, each with its verdict. */
  subCommands: { subCommand: SubCommand; verdict: SubCommandVerdict }[];
  fileWrites: FileWrite[];
  blockers: Blocker[];
}
