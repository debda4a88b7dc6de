/**
 * The confirmation texts of the terminal tools with side effects, as markdown: what will really
 * happen, the exact input in full, who receives it, in which session and folder. Everything a
 * model or a program supplied is made inert (../markdownText.ts). Plain Node, no `vscode`
 * import; the tools wrap the text in a `vscode.MarkdownString`.
 */
import * as path from 'node:path';
import { SendInput, keyLabel, visibleText } from '../../../terminal/input/input';
import { commandWords, misleadingWords, widestLine } from '../../../terminal/input/readsAs';
import {
  PromptKeysRefusal,
  RefusedKey,
  judgeLeftoverKeys,
  judgePromptKeys,
  lineSourceText,
  refusalClause,
  unshownKeyEffect,
} from '../../../terminal/input/promptKeys';
import type { SandboxSummary } from '../../../terminal/sandbox/policy';
import type { SendTarget } from '../../../terminal/service';
import type { ReceiverProcess } from '../../../terminal/types';
import { commandNamesExecutable } from '../../../proc/processIdentity';
import type { SessionInfo } from '../../../terminal/session/publishedSession';
import { codeFence, escapeMarkdown, inlineCode } from '../markdownText';
import { globalAliasesIn } from '../../../approval/decision';
import { textHead } from '../../../common/textHead';

/** Text over either bound gets its size stated under the code block that shows it in full. */
const LONG_TEXT_LINES = 10;
const LONG_TEXT_BYTES = 1024;
/**
 * Terminal columns of a line a chat code block is sure to show: it does not wrap
 * (`chat.editor.wordWrap` is off by default), so the end of a wider line is out of sight until the
 * block is scrolled sideways. A wider line is stated under the block, with where it is.
 */
const WIDE_LINE_COLUMNS = 80;

/**
 * Text to be typed as a confirmation shows it: a code block with the text in full (`codeFence`),
 * then, when it is over {@link LONG_TEXT_LINES} lines or {@link LONG_TEXT_BYTES} UTF-8 bytes or a
 * line is wider than {@link WIDE_LINE_COLUMNS} terminal columns as the block shows it (readsAs.ts
 * `columns`: East Asian wide and full-width characters take two, combining marks none, a tab
 * eight, each notation such as `⟨U+200B⟩` its own characters), a paragraph with its size and its
 * widest line: a chat confirmation shows a block 13 lines high and as wide as the panel, and the
 * rest only by scrolling inside it. Then the words that do not read as what they are
 * (readsAs.ts `misleadingWords`: mixed scripts, a command name in lookalike letters).
 */
export function typedTextBlock(text: string, language: string): string {
  const visible = visibleText(text, true);
  const block = codeFence(text, language, visible);
  const shown = visible.replace(/\n$/, '');
  let lines = 1;
  for (let i = shown.indexOf('\n'); i >= 0; i = shown.indexOf('\n', i + 1)) lines++;
  const bytes = Buffer.byteLength(text);
  const { line: widestAt, columns: widest } = widestLine(shown);
  const wide = widest > WIDE_LINE_COLUMNS;
  let message = block;
  if (lines > LONG_TEXT_LINES || bytes > LONG_TEXT_BYTES || wide) {
    const size = `${lines} line${lines === 1 ? '' : 's'}, ${bytes} bytes, shown in full above.`;
    message += `\n\n${size}${wide ? ` Line ${widestAt} is ${widest} columns wide: scroll the block sideways to read it to its end.` : ''}`;
  }
  return message + misleadingWordsText(text);
}

/** The words of `text` that do not read as what they are (readsAs.ts), as a paragraph starting with a blank line; empty for none. */
function misleadingWordsText(text: string): string {
  const { words, more } = misleadingWords(text);
  if (words.length === 0) return '';
  const listed = words.map((w) => `${inlineCode(w.word)}${w.line > 1 ? ` (line ${w.line})` : ''}: ${escapeMarkdown(w.why)}`);
  return `\n\n**Not what it looks like**: ${listed.join('; ')}${more ? '; and more such words' : ''}.`;
}

/** How a confirmation names the program that reads the input, and what happens to the input. */
export function receiverText(target: SendTarget, keys: boolean): string {
  const r = target.receiver;
  const then = keys ? 'nothing is appended' : 'then Enter';
  switch (r.kind) {
    case 'shell-prompt':
      return r.lineEditing
        ? `**${escapeMarkdown(r.process.command)} at its prompt**: ${keys ? 'the keys edit its command line' : 'pasted as one piece into an empty command line, then Enter runs it'}${keys ? `; ${then}` : ''}.`
        : `**${escapeMarkdown(r.process.command)} at its prompt** (line editing off): ${keys ? then : 'typed, then Enter runs it'}.`;
    case 'shell-continuation':
      return `**${escapeMarkdown(r.process.command)} at its continuation prompt**: ${keys ? 'the keys edit the unfinished command' : 'pasted as the next line of an unfinished command'}; ${then}.`;
    case 'program': {
      const who = programName(r.process, r.replacedShell === true);
      if (r.reading === false) return `${who}, which is running and not reading input now: the send is refused unless it reads by then.`;
      return `${who}${r.reading ? ', which is waiting for input' : ''}: ${keys ? 'pressed' : 'typed'}, ${then}.`;
    }
    case 'exited':
      return 'nobody: the shell has exited, so the send will fail.';
  }
}

/**
 * A program receiver as a confirmation names it: by the executable the kernel runs when its
 * command line names another (`**perl** (\`/usr/bin/perl\`), calling itself \`sudo -v\``), since a
 * process sets its own command line; and, for the shell's process running another executable
 * than the shell started, that it is not that shell.
 */
function programName(p: ReceiverProcess, replacedShell: boolean): string {
  const exe = p.identity?.executable;
  const named =
    exe === undefined || commandNamesExecutable(p.command, exe)
      ? `${inlineCode(p.command)} (pid ${p.pid}${p.executable ? `, ${inlineCode(p.executable)}` : ''})`
      : `**${escapeMarkdown(path.basename(exe.path.replace(/ \(deleted\)$/, '')))}** (${inlineCode(exe.path)}), calling itself ${inlineCode(p.command)} (pid ${p.pid})`;
  if (!replacedShell) return named;
  return `${named}, **not the shell DSH Bridge started** (the shell's process now runs this program, which may show what looks like the shell's prompt)`;
}

/** How much of an alias's text a confirmation shows (UTF-16 code units); a longer one is named with its length. */
const ALIAS_SHOWN_UNITS = 200;
/** How many of the aliases and functions a text runs a confirmation names; the rest are counted. */
const NAMES_LISTED = 16;

/**
 * The commands of `text` that the shell at its prompt runs as one of its own aliases or functions
 * rather than the program of that name (the names its last prompt reported, shellNames.ts), as a
 * paragraph starting with a blank line; empty for none, and for text a program reads. Each is
 * named once, at most NAMES_LISTED of them, an alias's text cut to ALIAS_SHOWN_UNITS.
 */
function shellNamesText(text: string, target: SendTarget): string {
  const r = target.receiver;
  const names = target.shellNames;
  if ((r.kind !== 'shell-prompt' && r.kind !== 'shell-continuation') || !names) return '';
  if (names.kind === 'unknown')
    return "\n\nThe shell no longer reports its aliases and functions: a command's name may run one of them instead of the program.";
  const aliasText = (word: string) => {
    if (!Object.hasOwn(names.aliasValues, word)) return '';
    const value = names.aliasValues[word]!;
    const length = value.length > ALIAS_SHOWN_UNITS ? ` of ${value.length} characters` : '';
    return `${length} for ${inlineCode(textHead(value, ALIAS_SHOWN_UNITS))}`;
  };
  const defined = [...new Set(commandWords(text))].flatMap((word) =>
    names.aliases.includes(word)
      ? [`${inlineCode(word)} is an alias${aliasText(word)}`]
      : names.functions.includes(word)
        ? [`${inlineCode(word)} is a function`]
        : [],
  );
  for (const g of new Set(globalAliasesIn(text, names.globalAliases)))
    defined.push(`${inlineCode(textHead(g, ALIAS_SHOWN_UNITS))} is a global alias, replaced wherever it stands`);
  if (defined.length === 0) return '';
  const listed = defined.slice(0, NAMES_LISTED);
  const more = defined.length > listed.length ? ` and ${defined.length - listed.length} more` : '';
  return `\n\n**Defined in this shell**: ${listed.join(', ')}${more}: ${defined.length === 1 ? 'it runs' : 'they run'} what the shell defines, not the program of that name.`;
}

/** How many keys pressed earlier at the prompt a confirmation lists by name. */
const LINE_KEYS_SHOWN = 64;

/**
 * What keys do where bash's line editor reads them (promptKeys.ts), as paragraphs to add after the
 * receiver, each starting with a blank line; empty for keys shown in full on an empty line. It
 * lists the keys earlier sends pressed at this prompt (the command line holds what they typed) and
 * other text the line may hold, says when the send will be refused and why, and names a key that
 * puts text on the line which the dialog cannot show. For a program reading the terminal it says
 * that keys the program does not read before it ends go to the shell's prompt, and when the send
 * will be refused for what they would do there.
 */
export function promptKeysText(keys: readonly string[], target: SendTarget): string {
  const r = target.receiver;
  if (r.kind === 'program') return leftoverKeysText(keys, r.process.command);
  if ((r.kind !== 'shell-prompt' && r.kind !== 'shell-continuation') || !r.lineEditing) return '';
  let text = '';
  const earlier = r.lineKeys;
  if (earlier && earlier.keys.length > 0) {
    const listed = earlier.keys.slice(0, LINE_KEYS_SHOWN);
    const more = earlier.more + earlier.keys.length - listed.length;
    text += `\n\nThe command line already holds what keys pressed earlier at this prompt typed: ${listed.map((k) => inlineCode(keyLabel(k))).join(' ')}${more > 0 ? ` and ${more} more` : ''}.`;
  }
  const verdict = judgePromptKeys(keys, earlier);
  if (earlier?.foreign && verdict.refusal?.kind !== 'runs-foreign')
    text += `\n\nThe command line may hold ${lineSourceText(earlier.foreign)}, which this dialog cannot show; a send that would run it is refused.`;
  if (verdict.refusal) return `${text}\n\n**Refused when it runs, nothing is pressed**: ${refusalText(verdict.refusal)}.`;
  const first = keys.find((k) => k === verdict.line?.unshown);
  if (first)
    text += `\n\n${inlineCode(keyLabel(first))} ${unshownKeyEffect(first)}, which this dialog cannot show; these keys do not run it, and a later send that would is refused.`;
  return text;
}

/**
 * What keys for a program (`command`) may leave for the shell's prompt (promptKeys.ts
 * judgeLeftoverKeys), as a paragraph starting with a blank line. The dialog cannot know whether
 * the program reads whole lines or key by key, so it says when the send is refused for a program
 * reading key by key.
 */
function leftoverKeysText(keys: readonly string[], command: string): string {
  let text = `\n\nKeys that ${inlineCode(command)} does not read before it ends go to the shell: at its prompt they edit the command line, and a later send that would run what they left there is refused.`;
  const leftover = judgeLeftoverKeys(keys, false);
  if (leftover) {
    text += ` **Refused when it runs, nothing is pressed, if the program reads key by key**: it may end after ${inlineCode(keyLabel(leftover.after.key))}, and at the prompt ${refusalText(leftover.refusal)}.`;
  }
  return text;
}

/** What a refused send's keys would do, as the dialog says it (keys by label, as the keys list shows them). */
function refusalText(refusal: PromptKeysRefusal): string {
  const name = (k: RefusedKey) => `${inlineCode(keyLabel(k.key))}${k.index === undefined ? ' (pressed earlier at this prompt)' : ''}`;
  return refusalClause(refusal, name, 'which this dialog cannot show');
}

/** Characters of the traps' text a confirmation shows. */
const TRAPS_SHOWN_CHARS = 300;

/**
 * The shell's folder as a confirmation states it: current, or the opening one when unreadable;
 * when code besides DSH Bridge's may run around the command (a trap, a PROMPT_COMMAND entry, a
 * changed PS0, a zsh precmd or preexec hook: shellTraps.ts, promptHooks.ts), or the shell can no
 * longer tell, it names that code (or why it cannot), and says that the folder the command runs in
 * cannot be known.
 */
export function folderText(target: SendTarget): string {
  const where = target.cwdIsCurrent
    ? `in ${inlineCode(target.cwd)}`
    : `opened in ${inlineCode(target.cwd)} (its current folder could not be read and may differ)`;
  const traps = target.traps;
  if (!traps) return where;
  if (traps.kind === 'unknown') {
    const why = traps.standIn
      ? 'a function or program stands in for a builtin its prompt code runs (such as a function named `builtin`), so nothing it reports can be trusted'
      : 'its PROMPT_COMMAND was replaced';
    return `${where} at its prompt, but the shell no longer reports its traps and prompt hooks (${why}): code may run around a command and change the folder, so the folder this runs in cannot be known`;
  }
  const text = traps.text;
  const shown = text.length > TRAPS_SHOWN_CHARS ? `${text.slice(0, TRAPS_SHOWN_CHARS)}… (${text.length} characters)` : text;
  // Hooks the person's own startup files set up are their configuration: shown, not held against
  // the folder (one added since is, like a trap).
  if (traps.startupHooksOnly) return `${where}; at every prompt this shell also runs hooks its startup files set up (${inlineCode(shown)})`;
  const from = target.trapsFromStartup ? ', set by your startup files' : '';
  return `${where} at its prompt, but this shell has traps or hooks that run around commands (${inlineCode(shown)}${from}): PROMPT_COMMAND entries and precmd hooks run at every prompt, PS0 and preexec hooks as each command starts, a DEBUG trap before each command, ERR and RETURN after some, a signal's whenever it arrives, and any may change the folder, so the folder this runs in cannot be known`;
}

/**
 * The confirmation body of a send: the exact text in full in a code block (with its size and widest
 * line when long or wide, {@link typedTextBlock}) or the keys by name, who receives it, the
 * session and the shell's current folder.
 */
export function sendConfirmationText(typed: SendInput, session: SessionInfo, target: SendTarget): string {
  let message: string;
  if (typed.kind === 'text') {
    message = typedTextBlock(typed.text, target.receiver.kind.startsWith('shell') ? 'sh' : 'text');
  } else {
    message = `Press keys: ${typed.keys.map((k) => inlineCode(keyLabel(k))).join(' ')}`;
  }
  message += `\n\nReceiver: ${receiverText(target, typed.kind === 'keys')}`;
  if (typed.kind === 'text') message += shellNamesText(typed.text, target);
  if (typed.kind === 'keys') message += promptKeysText(typed.keys, target);
  message += `\n\nSession ${escapeMarkdown(session.sessionId)} (${escapeMarkdown(session.name)}), ${folderText(target)}.`;
  message += `\n\n${sandboxText(session.sandbox)}`;
  if (session.takenOver) message += '\n\nThe user has taken this session over: the send will be refused.';
  return message;
}

/**
 * The confirmation body of a `dsh_run` that opens its session first: the command in full (with its
 * size and widest line when long or wide, {@link typedTextBlock}), then
 * bash at its prompt in `folder` (the home folder when undefined) as the receiver.
 */
export function newSessionRunText(command: string, folder: string | undefined, sandbox?: SandboxSummary): string {
  return (
    typedTextBlock(command, 'sh') +
    `\n\nReceiver: **bash at its prompt** in a new session, ${folder ? `in ${inlineCode(folder)}` : 'in your home folder'}: pasted as one piece, then Enter runs it.` +
    (sandbox ? `\n\n${sandboxText(sandbox)}` : '')
  );
}

/**
 * Whether a command runs sandboxed, as every confirmation says it: inside the agent sandbox with
 * its writable folders and network, outside it in a session the person approved, or outside any sandbox.
 */
export function sandboxText(sandbox: SandboxSummary): string {
  if (sandbox.outsideApproved)
    return 'Runs **outside the sandbox** (the agent sandbox is on; you approved this session outside it): with your permissions, files and network.';
  if (!sandbox.on) return 'Runs **outside any sandbox**: with your permissions, files and network.';
  const network =
    sandbox.network === 'all'
      ? 'all network'
      : sandbox.network === 'none'
        ? 'no network'
        : `network only to ${sandbox.network.allowedDomains.map(inlineCode).join(', ')}`;
  return `Runs **inside the agent sandbox**: writes only in ${sandbox.writableRoots.map(inlineCode).join(', ')}; ${network}.`;
}

/**
 * The confirmation body of a signal: which signal, delivered to whom (the program in the
 * foreground, else the shell), in which session and folder. `session` and `where` are undefined
 * when the session is unknown or gone.
 */
export function signalConfirmationText(signal: unknown, session: SessionInfo | undefined, where: SendTarget | undefined): string {
  const receiver = where?.receiver;
  const target = receiver?.kind === 'program' ? inlineCode(receiver.process.command) : 'the shell of the session';
  return `Deliver **${escapeMarkdown(String(signal))}** to the foreground process group: ${target}${session ? ` (session ${escapeMarkdown(session.sessionId)} (${escapeMarkdown(session.name)})${where ? `, ${folderText(where)}` : ''})` : ''}.`;
}

/**
 * The confirmation body of a close: the session, its name and folder, and the command still
 * running in it, if any. `session` and `where` are undefined when the session is unknown or gone.
 */
export function closeConfirmationText(
  sessionId: unknown,
  session: SessionInfo | undefined,
  where: SendTarget | undefined,
  keep = false,
): string {
  const running = session?.foregroundCommand ? ` ${inlineCode(session.foregroundCommand)} is still running.` : '';
  const what = keep
    ? ' and its foreground command; the processes it started in the background **keep running** (list and stop them with "DSH: Kept Agent Processes")'
    : ' and every process it started';
  return `End the shell of ${escapeMarkdown(String(sessionId))}${session ? ` (${escapeMarkdown(session.name)}${where ? `, ${folderText(where)}` : ''})` : ''}${what}.${running}`;
}

/**
 * The confirmation body of `dsh_terminal_open` with `sandbox: false` while the agent sandbox is
 * on: the session is started outside the sandbox, what that means, and why asking is allowed.
 * `reason` says why the sandbox is on; `allowedBy` why a session outside it may be asked for.
 */
export function outsideSandboxText(folder: string, named: string, reason: string, allowedBy: string): string {
  return (
    `The agent asks to start a bash session${named} **outside the sandbox**, in ${folder}: it and every command typed into it run with your permissions, ` +
    `your files (write and read anywhere you can, including what the sandbox denies) and all network.` +
    `\n\nThe agent sandbox is on (${escapeMarkdown(reason)}); other sessions stay inside it. Allowed to ask because ${escapeMarkdown(allowedBy)}.`
  );
}
