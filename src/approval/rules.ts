/**
 * The auto-approve rules of `chat.tools.terminal.autoApprove` (plain Node, no `vscode` import):
 * reading the setting's object into rules, merging VS Code's defaults with the person's values,
 * and matching a rule against a command's text. Semantics from VS Code's setting description
 * (1.139): a key is the start of a command, or a regular expression written `/…/flags`; `true`
 * approves, `false` denies, `null` unsets a value of a lower scope or the defaults, and
 * `{ approve, matchCommandLine }` matches the whole command line. A path key (`bin/test.sh`) also
 * approves `./bin/test.sh` and `bin\test.sh`.
 *
 * Stricter than VS Code: a prefix key matches only where a word ends (`git status` matches
 * `git status -s`, not `git statusx` nor `git status-x`), and a regular expression that cannot be
 * compiled makes every command it was to judge ask (when it denies) rather than be skipped.
 */
import { errorMessage } from '../common/errorMessage';
import type { ApprovalRule } from './types';

/** A rule ready to match: its regular expression, or why it could not be compiled. */
export interface CompiledRule extends ApprovalRule {
  /** For a `/…/` key: the compiled expression; undefined for a prefix key or when it did not compile. */
  regex?: RegExp;
  /** Why a `/…/` key did not compile (then the rule matches nothing when it approves, everything when it denies). */
  invalid?: string;
  /**
   * Text the rule can match only at the start of (a prefix key itself; the literal word a
   * `/^word…/` expression starts with), lower-cased for an `i` expression; undefined: anywhere.
   * Lets a judgement skip rules that cannot match without running them.
   */
  anchor?: string;
}

/** A setting value of `chat.tools.terminal.autoApprove`: `true`, `false`, `null` or `{ approve, matchCommandLine }`. */
export type RuleValue = boolean | null | { approve: boolean | null; matchCommandLine?: boolean };

/** A key written as a regular expression: `/pattern/flags`. */
const REGEX_KEY = /^\/(.+)\/([dgimsuvy]*)$/s;

/**
 * The rules of a merged `autoApprove` object, in its key order. Values that are not `true`,
 * `false`, `{approve: boolean, matchCommandLine?: boolean}` (null included: it only unsets) are
 * left out and named in `ignored`.
 */
export function rulesFrom(
  merged: Record<string, unknown>,
  sourceOf: (key: string) => ApprovalRule['source'],
): { rules: CompiledRule[]; ignored: string[] } {
  const rules: CompiledRule[] = [];
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(merged)) {
    let approve: boolean | undefined;
    let matchCommandLine = false;
    if (typeof value === 'boolean') approve = value;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const v = value as { approve?: unknown; matchCommandLine?: unknown };
      if (typeof v.approve === 'boolean') approve = v.approve;
      matchCommandLine = v.matchCommandLine === true;
    }
    if (approve === undefined) {
      if (value !== null && !(typeof value === 'object' && (value as { approve?: unknown }).approve === null)) ignored.push(key);
      continue;
    }
    rules.push(compileRule({ key, approve, matchCommandLine, source: sourceOf(key) }));
  }
  return { rules, ignored };
}

/**
 * VS Code's merge of an object setting across scopes, for this setting: each later layer's keys
 * replace the earlier's, and `null` (or `{approve: null}`) removes the key. Layers that are not
 * objects are skipped.
 */
export function mergeRuleLayers(layers: readonly unknown[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    if (typeof layer !== 'object' || layer === null || Array.isArray(layer)) continue;
    for (const [key, value] of Object.entries(layer as Record<string, unknown>)) {
      const unset = value === null || (typeof value === 'object' && value !== null && (value as { approve?: unknown }).approve === null);
      if (unset) delete merged[key];
      else merged[key] = value;
    }
  }
  return merged;
}

/** The rule with its expression compiled when its key is `/…/flags` (the `g` and `y` flags dropped: they make `test` stateful). */
export function compileRule(rule: ApprovalRule): CompiledRule {
  const m = REGEX_KEY.exec(rule.key);
  // A path key also matches its `./` and backslash forms: no anchor.
  if (!m) return { ...rule, anchor: /[/\\]/.test(rule.key) ? undefined : rule.key };
  const flags = m[2]!.replace(/[gy]/g, '');
  const literal = hasTopLevelAlternation(m[1]!) ? undefined : /^\^([A-Za-z0-9_.+-]+)(?:\\b|\\s|\(|\$)/.exec(m[1]!)?.[1];
  const anchor = literal === undefined || flags.includes('m') ? undefined : flags.includes('i') ? literal.toLowerCase() : literal;
  try {
    return { ...rule, regex: new RegExp(m[1]!, flags), anchor };
  } catch (first) {
    // `(?-i:…)` (a modifier group) is new in JavaScript (ES2025); without the `i` flag it is the
    // plain group `(?:…)`, which older engines compile.
    if (!flags.includes('i') && m[1]!.includes('(?-i:')) {
      try {
        return { ...rule, regex: new RegExp(m[1]!.replaceAll('(?-i:', '(?:'), flags), anchor };
      } catch {
        // reported below
      }
    }
    return { ...rule, invalid: errorMessage(first) };
  }
}

/** Whether a pattern has a `|` outside any group (then its `^word` does not anchor all of it). */
function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

/** Whether `rule` can match `text` at all (see CompiledRule.anchor): false only when it surely cannot. */
export function mayMatch(rule: CompiledRule, text: string): boolean {
  if (rule.anchor === undefined) return true;
  return rule.regex?.flags.includes('i') ? text.slice(0, rule.anchor.length).toLowerCase() === rule.anchor : text.startsWith(rule.anchor);
}

/** A rule's match in a text: where it ends (UTF-16 offset), or undefined when it does not match. */
export function matchEnd(rule: CompiledRule, text: string): number | undefined {
  if (rule.invalid !== undefined) return rule.approve ? undefined : text.length;
  if (rule.regex) {
    const m = rule.regex.exec(text);
    return m ? m.index + m[0].length : undefined;
  }
  for (const key of pathForms(rule.key)) {
    if (text === key || (text.startsWith(key) && /\s/.test(text[key.length]!))) return key.length;
  }
  return undefined;
}

/** A prefix key and, for a path key (holding `/` or `\`), its `./` and backslash forms. */
function pathForms(key: string): string[] {
  if (!/[/\\]/.test(key)) return [key];
  const slashes = key.replace(/\\/g, '/');
  const forms = new Set([key, slashes, slashes.replace(/\//g, '\\')]);
  for (const f of [...forms])
    if (!f.startsWith('./') && !f.startsWith('/') && !f.startsWith('.\\')) forms.add(f.includes('/') ? `./${f}` : `.\\${f}`);
  return [...forms];
}

/**
 * The program a denying rule is about, for a command whose arguments are decided when it runs:
 * a prefix key's first word, or the literal word a regular expression starts with after `^`
 * (`/^find\b.*-delete/` → `find`); undefined when a rule may be about any program (a
 * `/\.ps1/` key, a line rule).
 */
export function ruleProgram(rule: CompiledRule): string | undefined {
  if (rule.matchCommandLine) return undefined;
  if (!rule.regex && rule.invalid === undefined) return rule.key.split(/\s+/)[0];
  return rule.regex ? rule.anchor : undefined;
}
