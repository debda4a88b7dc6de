/**
 * Whether the rules approve a command line that the shell at its prompt will run (plain Node, no
 * `vscode` import). As VS Code decides (the `chat.tools.terminal.autoApprove` description): a line
 * is approved when no sub-command and not the line is denied by a rule, and either every
 * sub-command or the line is approved. Stricter than VS Code:
 * - a line with a blocker (commandLine.ts: a parse error, a program decided when it runs, a
 *   function defined, a variable that changes what runs) is never approved;
 * - a sub-command whose program the session's shell defines as an alias is judged as what the
 *   alias expands to (approveLine.ts), and one whose program is a function, or an alias whose
 *   text is not known, is not approved by the rule for the program of that name; a line holding a
 *   zsh global alias is not approved, nor a program word a zsh suffix alias runs;
 * - a sub-command with an argument decided when it runs (`find . $x`) is not approved when a
 *   denying rule is about its program (the argument could be the option the rule denies);
 * - an interpreter (`bash script.sh`, `python3 x.py`, `source env.sh`) is approved only by a rule
 *   that names more than the program;
 * - both the text as written and its words with quotes removed are matched: a denying rule
 *   matching either denies (`r"m" x` is `rm x`);
 * - a line with no command is not approved;
 * - file writes follow `blockDetectedFileWrites`, a target decided when the line runs counting as
 *   outside the workspace.
 * The decision names every rule that approved and, when not approved, every reason.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CompiledRule, matchEnd, mayMatch, ruleProgram } from './rules';
import type { ApprovalContext, ApprovalRule, CommandLineAnalysis, LineDecision, SubCommand, SubCommandVerdict } from './types';
import { programName } from './wrappers';

/** Reasons a decision lists; past this many the last one counts the rest. */
export const MAX_REASONS = 20;

/** Characters of a sub-command a reason quotes. */
const QUOTED_CHARS = 120;

/** `text` as inline code in a reason, cut at {@link QUOTED_CHARS}. */
export function quoted(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  const cut = one.length > QUOTED_CHARS ? `${one.slice(0, QUOTED_CHARS)}…` : one;
  return `\`${cut.replace(/`/g, "'")}\``;
}

/** A rule's key as a reason names it, with where it comes from. */
export function ruleName(rule: ApprovalRule): string {
  const from = rule.source === 'default' ? " (VS Code's default)" : rule.source === 'npm-script' ? ' (a workspace npm script)' : '';
  return `${quoted(rule.key)}${from}`;
}

/** `npm run <script>`, `yarn run <script>`, `pnpm run <script>` with nothing after the script's name. */
const NPM_RUN = /^(npm|yarn|pnpm) run ([^\s]+)$/;

/** Where a text's first word ends (UTF-16 offset). */
function firstWordEnd(text: string): number {
  const m = /\s/.exec(text);
  return m ? m.index : text.length;
}

/**
 * The verdict on a sub-command whose program the shell expands as an alias: the verdict on what it
 * expands to (approveLine.ts).
 */
export type AliasJudge = (sub: SubCommand, value: string) => SubCommandVerdict;

/** The verdict of the rules on one sub-command (see the module comment); `judgeAlias` judges an alias the shell expands. */
export function judgeSubCommand(
  sub: SubCommand,
  rules: readonly CompiledRule[],
  context: Pick<ApprovalContext, 'shellNames' | 'npmScripts' | 'aliases' | 'suffixAliases'>,
  judgeAlias?: AliasJudge,
): SubCommandVerdict {
  const texts = sub.text === sub.words ? [sub.text] : [sub.text, sub.words];
  // The person's own rules are named before VS Code's defaults when both match; rules that cannot
  // match either text are left out unrun (a 10 KB line holds a thousand commands).
  const fits = (r: CompiledRule) => !r.matchCommandLine && texts.some((t) => mayMatch(r, t));
  const commandRules = [
    ...rules.filter((r) => r.source !== 'default' && fits(r)),
    ...rules.filter((r) => r.source === 'default' && fits(r)),
  ];
  const allCommandRules = rules.filter((r) => !r.matchCommandLine);
  const denied = commandRules.find((r) => !r.approve && texts.some((t) => matchEnd(r, t) !== undefined));
  if (denied) return { result: 'denied', rule: denied };
  const name = programName(sub.program);
  const alias = sub.aliasable && context.aliases && Object.hasOwn(context.aliases, sub.program) ? context.aliases[sub.program] : undefined;
  if (alias !== undefined && judgeAlias) return judgeAlias(sub, alias);
  const suffix = context.suffixAliases?.find((s) => sub.program.endsWith(`.${s}`));
  if (suffix !== undefined) {
    return {
      result: 'unmatched',
      cause: 'alias',
      why: `zsh runs \`${sub.program}\` with the command of its suffix alias for .${suffix}, not as a program`,
    };
  }
  if (alias !== undefined || context.shellNames.includes(sub.program) || context.shellNames.includes(name)) {
    return {
      result: 'unmatched',
      cause: 'alias',
      why: `\`${sub.program}\` is an alias or a function in this session's shell, not the program the rules name`,
    };
  }
  if (sub.unknownArguments) {
    const about = allCommandRules.find(
      (r) => !r.approve && (ruleProgram(r) === undefined || ruleProgram(r) === name || ruleProgram(r) === sub.program),
    );
    if (about)
      return {
        result: 'unmatched',
        cause: 'argument',
        why: `an argument is decided when it runs, and ${ruleName(about)} denies some such commands`,
      };
  }
  const npm = NPM_RUN.exec(sub.words);
  if (npm && context.npmScripts.includes(npm[2]!))
    return { result: 'approved', rule: { key: `${npm[1]} run ${npm[2]}`, approve: true, matchCommandLine: false, source: 'npm-script' } };
  for (const r of commandRules) {
    if (!r.approve) continue;
    for (const t of texts) {
      const end = matchEnd(r, t);
      if (end === undefined) continue;
      // An interpreter runs code the line does not show: the rule must name more than the program.
      if (sub.runsUnseenCode && end <= firstWordEnd(t)) continue;
      return { result: 'approved', rule: r };
    }
  }
  if (sub.runsUnseenCode && commandRules.some((r) => r.approve && texts.some((t) => matchEnd(r, t) !== undefined))) {
    return {
      result: 'unmatched',
      cause: 'interpreter',
      why: `\`${name}\` runs code the line does not show, and the rule names only the program`,
    };
  }
  return { result: 'unmatched' };
}

/**
 * The decision for a line (`line` as typed, `analysis` what commandLine.ts found in it) under
 * `context` (see the module comment).
 */
export function decideLine(
  line: string,
  analysis: CommandLineAnalysis,
  rules: readonly CompiledRule[],
  context: ApprovalContext,
  judgeAlias?: AliasJudge,
): LineDecision {
  const reasons: string[] = [];
  const subCommands = analysis.subCommands.map((subCommand) => ({
    subCommand,
    verdict: judgeSubCommand(subCommand, rules, context, judgeAlias),
  }));
  for (const g of globalAliasesIn(line, context.globalAliases ?? []))
    reasons.push(`\`${g}\` is a global alias in this zsh, replaced by its text wherever it stands`);
  for (const b of analysis.blockers) reasons.push(b.text ? `${b.reason}: ${quoted(b.text)}` : b.reason);
  for (const r of rules)
    if (r.invalid !== undefined && !r.approve)
      reasons.push(`the rule ${ruleName(r)} cannot be read as a regular expression (${r.invalid}), so it denies every command`);

  const lineRules = rules.filter((r) => r.matchCommandLine);
  const trimmed = line.trim();
  const lineDenied = lineRules.find((r) => !r.approve && matchEnd(r, trimmed) !== undefined);
  const lineApproved = lineRules.find((r) => r.approve && matchEnd(r, trimmed) !== undefined);
  if (lineDenied) reasons.push(`the rule ${ruleName(lineDenied)} denies this command line`);
  for (const { subCommand, verdict } of subCommands) {
    if (verdict.result === 'denied')
      reasons.push(`the rule ${ruleName(verdict.rule)} denies ${quoted(subCommand.text)}${verdict.why ? ` (${verdict.why})` : ''}`);
  }
  const unapproved = subCommands.filter((s) => s.verdict.result === 'unmatched');
  for (const { subCommand, verdict } of unapproved) {
    // A rule for the whole line does not approve what the line does not show: an alias's command, an argument's value.
    const cause = verdict.result === 'unmatched' ? verdict.cause : undefined;
    if (lineApproved && cause !== 'alias' && cause !== 'argument') continue;
    reasons.push(`no rule approves ${quoted(subCommand.text)}${verdict.result === 'unmatched' && verdict.why ? ` (${verdict.why})` : ''}`);
  }
  if (subCommands.length === 0 && !lineApproved && analysis.blockers.length === 0)
    reasons.push('the line holds no command for a rule to approve');
  reasons.push(...fileWriteReasons(analysis, context));

  const approved = reasons.length === 0;
  if (reasons.length > MAX_REASONS) reasons.splice(MAX_REASONS - 1, reasons.length, `and ${reasons.length - MAX_REASONS + 1} more reasons`);
  const used: ApprovalRule[] = [];
  if (approved) {
    const counted = lineApproved ? [lineApproved] : subCommands.map((s) => (s.verdict as { rule: ApprovalRule }).rule);
    for (const r of counted) if (!used.some((u) => u.key === r.key && u.source === r.source)) used.push(plainRule(r));
  }
  return {
    approved,
    rules: used,
    reasons,
    subCommands: subCommands.map((s) => ({ subCommand: s.subCommand, verdict: plainVerdict(s.verdict) })),
    fileWrites: analysis.fileWrites,
    blockers: analysis.blockers,
  };
}

/** Characters that end a word in a command line (blanks and bash's operators). */
const WORD_BREAK = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/**
 * The global aliases among `names` that stand as a whole word of `line` (between blanks or
 * operators). Quoting is not looked at: a quoted one counts too, which asks more, never less.
 */
export function globalAliasesIn(line: string, names: readonly string[]): string[] {
  const breaks = (at: number) => at < 0 || at >= line.length || WORD_BREAK.has(line[at]!);
  return names.filter((name) => {
    if (!name) return false;
    for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) if (breaks(at - 1) && breaks(at + name.length)) return true;
    return false;
  });
}

/** A rule without its compiled expression (what a result carries). */
function plainRule(r: ApprovalRule): ApprovalRule {
  return { key: r.key, approve: r.approve, matchCommandLine: r.matchCommandLine, source: r.source };
}

function plainVerdict(v: SubCommandVerdict): SubCommandVerdict {
  if (v.result === 'unmatched') return v;
  return v.result === 'denied' && v.why
    ? { result: 'denied', rule: plainRule(v.rule), why: v.why }
    : { result: v.result, rule: plainRule(v.rule) };
}

/** Files that always count as no write: the null device and the terminal's own streams. */
const NOT_WRITES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);

/** Why the line's file writes need the person, per `blockDetectedFileWrites` (empty when they do not). */
function fileWriteReasons(analysis: CommandLineAnalysis, context: ApprovalContext): string[] {
  if (context.blockFileWrites === 'never') return [];
  const reasons: string[] = [];
  const folders = context.workspaceFolders.map(realFolder);
  for (const w of analysis.fileWrites) {
    if (w.target !== undefined && NOT_WRITES.has(w.target)) continue;
    if (context.blockFileWrites === 'all') {
      reasons.push(`it writes a file (${quoted(w.text)}) and chat.tools.terminal.blockDetectedFileWrites is "all"`);
      continue;
    }
    const where = resolvedTarget(w.target, context.cwd);
    if (where === undefined) {
      reasons.push(`it writes a file whose path is decided when it runs or relative to an unknown folder (${quoted(w.text)})`);
      continue;
    }
    if (!folders.some((f) => isInside(where, f)))
      reasons.push(`it writes ${quoted(where)} outside the workspace folders (${quoted(w.text)})`);
  }
  return reasons;
}

/**
 * The real path a write's target names from `cwd`: resolved lexically, then its nearest existing
 * folder through symbolic links (a link in the workspace may lead out of it). `~` is decided by
 * HOME when the line runs: unknown, as is a relative target when `cwd` is unknown.
 */
function resolvedTarget(target: string | undefined, cwd: string | undefined): string | undefined {
  if (target === undefined || target.startsWith('~')) return undefined;
  if (!path.isAbsolute(target) && cwd === undefined) return undefined;
  const lexical = path.resolve(cwd ?? '/', target);
  let existing = lexical;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return lexical;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/** A folder's real path, or the folder as given when it cannot be resolved. */
function realFolder(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

function isInside(file: string, folder: string): boolean {
  const rel = path.relative(path.resolve(folder), file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
