/**
 * Splits a bash command line into every command that will run when it runs (plain Node, no
 * `vscode` import), from its tree-sitter-bash syntax tree: both sides of `&&`, `||`, `;`, `|`,
 * `&`; the commands inside `$( )`, backticks, `<( )`, `>( )`, subshells, `{ }` groups, `if`,
 * `for`, `while`, `until`, `case` bodies and function bodies; the command behind wrappers
 * (`env`, `command`, `builtin`, `exec`, `nohup`, `time`, `nice`, `timeout`, `sudo`, `doas`,
 * `xargs`, wrappers.ts); and the code given to `bash -c`, `sh -c` and `eval`, parsed again.
 * Redirections are not commands: those that write a file are listed. What the walk cannot judge
 * (a parse error, a program decided when the line runs, a function defined, a variable that
 * changes what runs) is listed as a blocker: such a line is never auto approved.
 */
import type { Blocker, CommandLineAnalysis, FileWrite, SubCommand } from './types';
import { BashParse, SyntaxNode, childrenOf } from './syntaxTree';
import { WordValue, wordValue } from './wordValue';
import { INTERPRETERS, SHELLS, WRAPPERS, programName, shellCodeIndex, wrappedCommandStart } from './wrappers';

/** How deep code given to `bash -c` / `eval` inside such code is followed; deeper is a blocker. */
export const MAX_NESTED_CODE = 4;

/**
 * Variables whose value changes which program runs, what a program loads or what the shell runs
 * on its own: assigning one (`PATH=/tmp/x ls`, `export LD_PRELOAD=…`, `env BASH_ENV=… bash`) is a
 * blocker. (bash(1) Shell Variables; ld.so(8); git(1), node(1), python(1) environment.)
 */
const CHANGES_WHAT_RUNS =
  /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|IFS|PS4|PROMPT_COMMAND|BASH_FUNC_.*|BASH_LOADABLES_PATH|CDPATH|GLOBIGNORE|HOME|\w*PAGER|EDITOR|VISUAL|GIT_\w+|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL\w*|RUBY\w*|JAVA_TOOL_OPTIONS|TERMINFO\w*|SHELL)$/;

/** Redirection operators that write the file they name (bash(1), REDIRECTION). */
const WRITE_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);

/** Redirection nodes, which a command's words do not include. */
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** A word of a command: its value and where it is in the source. */
interface Word extends WordValue {
  start: number;
  end: number;
}

/** Collects what one walk finds. */
class Findings implements CommandLineAnalysis {
  subCommands: SubCommand[] = [];
  fileWrites: FileWrite[] = [];
  blockers: Blocker[] = [];
}

/**
 * Everything that will run when `line` runs, the files its redirections write, and what keeps it
 * from being judged (see the module comment). `parse` parses bash (tree-sitter-bash); when it is
 * stopped (undefined), the line is a blocker.
 */
export function analyzeCommandLine(line: string, parse: BashParse): CommandLineAnalysis {
  const found = new Findings();
  walkSource(line, parse, found, 0, true);
  return found;
}

/** Walks `source`; `sessionShell`: the session's own shell runs it (the line, `eval`'s code), so its aliases apply. */
function walkSource(source: string, parse: BashParse, found: Findings, depth: number, sessionShell: boolean): void {
  const root = parse(source);
  if (!root) {
    found.blockers.push({ reason: 'the line could not be parsed within its time bound', text: '' });
    return;
  }
  new Walker(source, parse, found, depth, sessionShell).walk(root);
}

class Walker {
  constructor(
    private readonly source: string,
    private readonly parse: BashParse,
    private readonly found: Findings,
    private readonly depth: number,
    private readonly sessionShell: boolean,
  ) {}

  walk(node: SyntaxNode): void {
    if (node.type === 'ERROR' || node.isMissing) {
      this.block(
        node.isMissing ? `the line is incomplete (a missing \`${node.type}\`)` : 'the line cannot be parsed as bash',
        node.isMissing ? '' : node.text,
      );
      // Commands inside what could be parsed are still listed (a denying rule is named).
    }
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        this.command(node);
        return;
      case 'function_definition':
        this.block('defines a shell function, which changes what a later command of that name runs', this.functionName(node));
        break;
      case 'variable_assignment':
        this.assignmentStatement(node);
        return;
      case 'variable_assignments':
        for (const c of childrenOf(node)) if (c.type === 'variable_assignment') this.assignmentStatement(c);
        return;
      case 'declaration_command':
      case 'unset_command':
        this.declaration(node);
        return;
      case 'test_command':
        this.add({
          text: node.text,
          words: node.text,
          program: node.text.startsWith('((') ? '((' : node.text.startsWith('[[') ? '[[' : '[',
          unknownArguments: true,
          runsUnseenCode: false,
        });
        break;
      case 'for_statement': {
        const variable = node.childForFieldName('variable');
        if (variable && CHANGES_WHAT_RUNS.test(variable.text))
          this.block(`assigns \`${variable.text}\`, which changes what runs`, variable.text);
        break;
      }
      case 'file_redirect':
        this.redirect(node);
        break;
    }
    for (const c of childrenOf(node)) this.walk(c);
  }

  private functionName(node: SyntaxNode): string {
    return node.childForFieldName('name')?.text ?? node.text.slice(0, 40);
  }

  private block(reason: string, text: string): void {
    this.found.blockers.push({ reason, text });
  }

  private add(sub: SubCommand): void {
    this.found.subCommands.push(sub);
  }

  /** A statement that only assigns (`x=1`): a sub-command of its own (it changes what later commands see). */
  private assignmentStatement(node: SyntaxNode): void {
    this.checkAssignment(node);
    this.add({ text: node.text, words: node.text, program: node.text, unknownArguments: false, runsUnseenCode: false });
    this.walkChildren(node);
  }

  /** The nodes inside `node`, walked (not `node` itself). */
  private walkChildren(node: SyntaxNode): void {
    for (const c of childrenOf(node)) this.walk(c);
  }

  private checkAssignment(node: SyntaxNode): void {
    const name = node.childForFieldName('name')?.text ?? node.text.split(/[+]?=/)[0] ?? '';
    if (CHANGES_WHAT_RUNS.test(name)) this.block(`assigns \`${name}\`, which changes what runs`, node.text);
  }

  /** `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: a sub-command named by its keyword. */
  private declaration(node: SyntaxNode): void {
    const parts = childrenOf(node);
    const keyword = parts[0]?.text ?? node.text;
    let known = true;
    const words: string[] = [keyword];
    for (const c of parts.slice(1)) {
      if (c.type === 'variable_assignment') {
        this.checkAssignment(c);
        words.push(c.text);
      } else {
        const v = wordValue(c);
        known &&= v.known;
        words.push(v.value);
        if (c.type === 'variable_name' || c.type === 'word') {
          if (CHANGES_WHAT_RUNS.test(v.value) && keyword !== 'unset')
            this.block(`declares \`${v.value}\`, which changes what runs`, c.text);
        }
      }
    }
    this.add({ text: node.text, words: words.join(' '), program: keyword, unknownArguments: !known, runsUnseenCode: false });
    for (const c of parts) this.walkChildren(c);
  }

  private redirect(node: SyntaxNode): void {
    const parts = childrenOf(node);
    const operator = parts.find(
      (c) =>
        c.type === '>' ||
        c.type === '>>' ||
        c.type === '&>' ||
        c.type === '&>>' ||
        c.type === '>|' ||
        c.type === '<>' ||
        c.type === '>&' ||
        c.type === '<' ||
        c.type === '<&' ||
        c.type === '>&-' ||
        c.type === '<&-',
    );
    const destination = node.childForFieldName('destination') ?? parts[parts.length - 1];
    if (!operator || !destination || destination === operator) return;
    let writes = WRITE_OPERATORS.has(operator.type);
    // `>&word` with a word that is not a descriptor number or `-` writes stdout and stderr to the file.
    if (operator.type === '>&') writes = !(destination.type === 'number' || /^\d+-?$|^-$/.test(destination.text));
    if (!writes) return;
    const v = wordValue(destination);
    this.found.fileWrites.push({ text: node.text, target: v.known ? v.value : undefined });
  }

  /** A simple command: its words, the wrappers and shells in front, its nested commands. */
  private command(node: SyntaxNode): void {
    const words: Word[] = [];
    // Walked after the command itself is listed, so sub-commands come in the order they are written.
    const inside: SyntaxNode[] = [];
    let nameSeen = false;
    for (const c of childrenOf(node)) {
      if (!nameSeen && c.type === 'variable_assignment') {
        this.checkAssignment(c);
        inside.push(...childrenOf(c));
        continue;
      }
      if (c.type === 'command_name') nameSeen = true;
      if (nameSeen && !REDIRECTS.has(c.type)) words.push({ ...wordValue(c), start: c.startIndex, end: c.endIndex });
      // Substitutions inside the words run too; redirections are walked for the files they write.
      inside.push(c);
    }
    if (words.length > 0) this.commandWords(words, false, this.sessionShell);
    for (const c of inside) this.walk(c);
  }

  /**
   * The sub-command starting at `words[0]` and those behind it: a wrapper's command, a shell's
   * `-c` code, `eval`'s code. `addedArguments`: a wrapper in front hands it arguments the line
   * does not show (xargs). `commandPosition`: `words[0]` is the first word of a simple command the
   * session's shell runs (not a wrapper's command), where the shell expands an alias.
   */
  private commandWords(words: Word[], addedArguments: boolean, commandPosition: boolean): void {
    const first = words[0]!;
    const last = words[words.length - 1]!;
    const text = this.source.slice(first.start, last.end);
    if (!first.known) {
      this.block('the program is decided when the line runs (an expansion or a glob is its first word)', text.slice(0, 200));
      return;
    }
    const program = first.value;
    const name = programName(program);
    const values = words.map((w) => w.value);
    const sub: SubCommand = {
      text,
      words: values.join(' '),
      program,
      unknownArguments: addedArguments || words.slice(1).some((w) => !w.known),
      runsUnseenCode: INTERPRETERS.has(name),
      // bash expands an alias only in a word written without quotes or backslashes (bash(1), ALIASES).
      aliasable: commandPosition && this.source.slice(first.start, first.end) === program,
    };
    const wrapper = WRAPPERS.get(name);
    if (wrapper) {
      const start = wrappedCommandStart(wrapper, values);
      if ('refused' in start) {
        this.block(`cannot tell which command \`${name}\` runs (option \`${start.refused}\`)`, text);
        return;
      }
      if (words.slice(1, start.index).some((w) => !w.known)) {
        this.block(`cannot tell which command \`${name}\` runs (a word before it is decided when the line runs)`, text);
        return;
      }
      for (const a of start.assignments) if (CHANGES_WHAT_RUNS.test(a)) this.block(`assigns \`${a}\`, which changes what runs`, text);
      if (wrapper.judgedItself || start.index >= words.length) this.add({ ...sub, runsUnseenCode: false });
      if (start.index < words.length) this.commandWords(words.slice(start.index), addedArguments || wrapper.addsArguments === true, false);
      return;
    }
    if (SHELLS.has(name)) {
      const code = shellCodeIndex(values);
      if (typeof code === 'object') {
        this.block(`cannot tell what \`${name}\` runs (option \`${code.refused}\`)`, text);
        return;
      }
      if (code === undefined) {
        this.add(sub);
        return;
      }
      this.add({ ...sub, runsUnseenCode: false });
      this.nestedCode(words[code]!, name, text);
      return;
    }
    if (name === 'eval') {
      this.add(sub);
      const rest = words.slice(1);
      if (rest.some((w) => !w.known)) {
        this.block('the code given to `eval` is decided when the line runs', text);
        return;
      }
      if (rest.length > 0)
        this.nestedCode(
          { value: rest.map((w) => w.value).join(' '), known: true, start: rest[0]!.start, end: rest[rest.length - 1]!.end },
          'eval',
          text,
        );
      return;
    }
    this.add(sub);
    if (name === 'sed') this.sedInPlace(words, text);
  }

  /**
   * `sed -i` / `--in-place` writes the files it is given (GNU sed(1)): each is a file write. The
   * script is the first word that is not an option unless `-e` / `-f` gave it.
   */
  private sedInPlace(words: Word[], text: string): void {
    let inPlace = false;
    let scriptGiven = false;
    const operands: Word[] = [];
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!.value;
      if (w === '--') {
        operands.push(...words.slice(i + 1));
        break;
      }
      if (w.startsWith('--')) {
        if (w === '--in-place' || w.startsWith('--in-place=')) inPlace = true;
        if (w === '--expression' || w === '--file' || w === '--line-length') i++;
        if (w.startsWith('--expression') || w.startsWith('--file')) scriptGiven = true;
        continue;
      }
      if (w.startsWith('-') && w.length > 1) {
        const letters = w.slice(1);
        for (let k = 0; k < letters.length; k++) {
          const c = letters[k]!;
          if (c === 'i') {
            inPlace = true;
            break; // the rest is the backup suffix
          }
          if (c === 'e' || c === 'f' || c === 'l') {
            if (c !== 'l') scriptGiven = true;
            if (k === letters.length - 1) i++;
            break;
          }
        }
        continue;
      }
      operands.push(words[i]!);
    }
    if (!inPlace) return;
    for (const file of scriptGiven ? operands : operands.slice(1))
      this.found.fileWrites.push({ text, target: file.known ? file.value : undefined });
  }

  /** Code given as text to a shell or `eval`: parsed and walked like the line. */
  private nestedCode(code: Word, by: string, text: string): void {
    if (!code.known) {
      this.block(`the code given to \`${by}\` is decided when the line runs`, text);
      return;
    }
    if (this.depth + 1 > MAX_NESTED_CODE) {
      this.block(`code given to a shell is nested more than ${MAX_NESTED_CODE} deep`, text);
      return;
    }
    // `eval` runs its code in the same shell; another shell's `-c` code has none of its aliases.
    walkSource(code.value, this.parse, this.found, this.depth + 1, this.sessionShell && by === 'eval');
  }
}
