/**
 * The declarations of the terminal tools (../declaration.ts): names, whether each asks first,
 * descriptions and input schemas, in the order package.json lists them. Plain Node.
 */
import { z } from 'zod';
import { KEYS_HINT, MAX_KEYS, MAX_KEY_NAME_UNITS, RUN_KEYS_HINT } from '../../terminal/input/input';
import { MAX_INPUT_BYTES } from '../../terminal/input/sendAdmission';
import { ALLOWED_SIGNALS } from '../../terminal/types';
import { declareTool, text } from '../declaration';

/** Longest id (`pty-1`, `job-1`) a tool takes, in UTF-16 code units. */
const MAX_ID_UNITS = 64;
/** Longest session name, in UTF-16 code units (the service also counts at most 100 characters). */
const MAX_NAME_UNITS = 100;
/** Longest folder path, in UTF-16 code units: Linux's PATH_MAX is 4096 bytes. */
const MAX_PATH_UNITS = 4096;
/**
 * Longest text to type, in UTF-16 code units: as many as the bytes one send may type
 * (`MAX_INPUT_BYTES`, 256 KiB), which the send checks again in UTF-8 bytes.
 */
const MAX_TEXT_UNITS = MAX_INPUT_BYTES;
/** Longest search text or pattern, in UTF-16 code units. */
const MAX_PATTERN_UNITS = 1000;

/** `dsh_run`. */
export const RUN = declareTool({
  name: 'dsh_run',
  displayName: 'Run in Agent Terminal',
  tags: ['dsh', 'terminal'],
  asksFirst: { when: 'your auto-approve rules do not approve the command' },
  userDescription: 'Run a shell command in the agent terminal.',
  modelDescription:
    "Runs one shell command in the agent's default bash session and returns when the terminal says why: the simplest way to run commands. The session persists between calls (cwd, variables, background jobs), is opened on first use in the first workspace folder, and is reopened if its shell exited. Returns the same JSON as dsh_terminal_send plus the sessionId, with the output as a second text part: only waitReason stdin_read with waiting shell-prompt means the command finished (exitCode is its status; when `stopped` names a signal instead, e.g. SIGTSTP, it was stopped, not ended, and `fg` continues it); program-input means a program waits for input (answer it with dsh_terminal_send on the returned sessionId); timeout / inferred_idle mean it may still run (keep waiting with dsh_terminal_wait on the returned sessionId, optionally until a line you expect appears; read it with dsh_terminal_read; stop it with dsh_terminal_signal). Use dsh_terminal_open instead for parallel sessions. The command is text: it may hold printable characters, newlines and tabs only (CR LF counts as a newline): control characters (U+0000–U+001F but newline and tab, DEL, U+0080–U+009F) and bidirectional controls (U+202A–U+202E, U+2066–U+2069) are refused with an error naming the character. To press keys (Ctrl-C, arrows), use dsh_terminal_send with keys on the returned sessionId. timeoutMs defaults to 120000; output is capped at 256 KiB (newest kept).",
  input: z.strictObject({
    command: text('multiline', MAX_TEXT_UNITS, 1, RUN_KEYS_HINT).describe(
      'The command line to run (printable text; newlines and tabs allowed).',
    ),
    timeoutMs: z.int().min(1).max(2147483647).optional().describe('Absolute time limit in milliseconds. Default 120000.'),
  }),
  notInputs: {
    // dsh_run's one session is shared by every call: it never leaves the sandbox for one command.
    sandbox:
      'dsh_run runs in its own default session, inside the agent sandbox when it is on. To run outside the sandbox, open a session with dsh_terminal_open {sandbox: false} (the person is asked) and use dsh_terminal_send',
  },
});

/** `dsh_terminal_open`. */
export const TERMINAL_OPEN = declareTool({
  name: 'dsh_terminal_open',
  displayName: 'Open Agent Terminal',
  tags: ['dsh', 'terminal'],
  asksFirst: 'always',
  userDescription: 'Start a persistent bash or zsh session for the agent.',
  modelDescription:
    "Opens a persistent shell session (bash or zsh, the person's configured shell by default) on a real terminal (PTY) for running shell commands, and returns {sessionId, name, shell, cwd, sessionStatus, sandbox}; shell {name, why} says which shell runs and why. Any text the shell printed before its first prompt follows as a second part. sandbox {on, network, writableRoots} says whether the session runs inside VS Code's agent sandbox. Use it once, then reuse the sessionId for many dsh_terminal_send calls: the shell keeps its working directory, variables and background jobs between sends. Open another session only for parallel work (e.g. a server in one, tests in another). cwd defaults to the first workspace folder. Pagers and git's editor are disabled in the session (PAGER=cat, GIT_EDITOR=:). sandbox: false asks for a session outside the agent sandbox, for a command that fails because of the sandbox and must run outside it: the person is asked to confirm every time, and it is refused unless the setting chat.agent.sandbox.allowUnsandboxedCommands is true (the error says why).",
  input: z.strictObject({
    name: text('line', MAX_NAME_UNITS).optional().describe('Display name for the session (metadata only).'),
    shell: z
      .enum(['bash', 'zsh'])
      .optional()
      .describe(
        "The shell to run. Default: the person's choice (dsh.terminal.shell, else VS Code's agent terminal profile, else their default profile, else $SHELL).",
      ),
    cwd: text('line', MAX_PATH_UNITS, 1)
      .optional()
      .describe('Absolute path of the working directory. Default: the first workspace folder.'),
    sandbox: z
      .boolean()
      .optional()
      .describe(
        'false: ask the person for a session outside the agent sandbox (confirmed every time; only where chat.agent.sandbox.allowUnsandboxedCommands is true). Omit it to follow the sandbox settings.',
      ),
  }),
});

/** `dsh_terminal_send`. */
export const TERMINAL_SEND = declareTool({
  name: 'dsh_terminal_send',
  displayName: 'Send to Agent Terminal',
  tags: ['dsh', 'terminal'],
  asksFirst: { when: 'your auto-approve rules do not approve it (they judge text typed at the prompt)' },
  userDescription: 'Run a command (or answer a prompt) in an agent terminal.',
  modelDescription:
    'Types `input` into an open session (a newline is appended when missing), or presses `keys` (give exactly one of the two), and waits until the terminal says why it should return. Use `input` to run a command or to answer a program that waits for input; use `keys` for what a person presses: Enter, Tab, Escape, arrows, Ctrl-C, Ctrl-D (end of input on an empty line), or a single character without Enter (e.g. "q" in a pager, "y" for a one-key prompt). Text may hold printable characters, newlines and tabs only (CR LF counts as a newline): control characters (U+0000–U+001F but newline and tab, DEL, U+0080–U+009F) and bidirectional controls (U+202A–U+202E, U+2066–U+2069) are refused with an error naming the character. At the shell\'s prompt the text is pasted into an empty command line as one piece (nothing in it acts as an editing key; history expansion such as !! is off), then Enter runs it. Returns JSON {sessionId, waitReason, waiting?, sessionStatus, exitCode?, stopped?, foreground?, echoOff?, alternateScreen?, truncated, droppedBytes?, renderLimited?, durationMs, command?, listening?}; the command\'s output (the echoed command line and prompts removed) follows as a second text part, secrets in it shown as [redacted: <kind>] (setting dsh.terminal.redactSecrets). echoOff: true means a program reads a password with echo off: the person answers it (guidance says so), text sent into it is refused with PERSON_MUST_ANSWER; wait for the person with dsh_terminal_wait, or send keys ["Ctrl-C"] to cancel it. `listening` names the TCP and UDP sockets the session\'s processes listen on when the send returned ([{protocol, address, port, pid, command}], absent when none; a server started with & may need a moment: wait for its port with dsh_terminal_wait untilListening). `command` is the index of the command in the session\'s command record (see dsh_terminal_history; read its output again with dsh_terminal_read {command}). Every send returns `waitReason`: `stdin_read` = something provably waits for input (read `waiting`: `shell-prompt` means the command FINISHED and `exitCode` is its status, unless `stopped` names the signal that stopped it (Ctrl-Z: SIGTSTP; SIGSTOP): then it has not ended, has no exitCode, and `fg` continues it; `shell-continuation` means the shell wants the rest of an unfinished command, e.g. an open quote; `program-input` means a program (named in `foreground`) is waiting for keyboard input, answer it with another send, and if `echoOff` is true it is a password prompt: ask the human instead of guessing); `inferred_idle` = no output for a while, the command may still be running; `timeout` = the time limit passed and the command keeps running (keep waiting for it with dsh_terminal_wait, which types nothing, or signal it); `session_exit` = the shell exited (see `sessionStatus`). Only `stdin_read` with `waiting: shell-prompt` means the command finished. Limits: `timeoutMs` (default 120000) is an absolute limit in ms; the output is capped (default 256 KiB, newest kept, `truncated: true`), page older output with dsh_terminal_read. `renderLimited: true` means rendering the output hit its time limit (escape sequences that make a terminal redraw a lot): after the line that starts with ⟪rendering stopped here the rest is plain text with escapes removed. A send is refused while a command runs that is not reading input: wait, read, or signal it. Multi-line input (heredocs, several commands) is fine and returns after the last prompt. Do not use it for long-running servers without a short timeoutMs. With background: true it returns {sessionId, jobId} at once; poll dsh_terminal_output for the output and the final waitReason (the session stays busy until then). Input limits: at most 256 KiB per send, and a line typed to a program that reads line by line is limited to 4095 bytes (the rest would be lost, so such input is refused): put large data in a file. A send is also refused while the shell has not yet read the previous input (no prompt since).',
  input: z.strictObject({
    sessionId: text('line', MAX_ID_UNITS, 1).describe('Id returned by dsh_terminal_open, e.g. "pty-1".'),
    input: text('multiline', MAX_TEXT_UNITS, 0, KEYS_HINT)
      .optional()
      .describe(
        'Text to type: a command line, or an answer to a program. A newline is appended when missing. Printable characters, newlines and tabs only; use keys for control keys. Give either input or keys.',
      ),
    keys: z
      .array(text('line', MAX_KEY_NAME_UNITS, 1))
      .min(1)
      .max(MAX_KEYS)
      .optional()
      .describe(
        'Keys to press, in order, instead of input; nothing is appended (include "Enter" to submit). Names: Enter, Tab, Shift-Tab, Escape, Backspace, Delete, Insert, Up, Down, Right, Left, Home, End, PageUp, PageDown, Space, F1–F12, Ctrl-A–Ctrl-Z (Ctrl-C interrupts, Ctrl-D is end of input on an empty line), Ctrl-\\, Ctrl-], Ctrl-^, Ctrl-_, or one printable character such as "q" or "y". Example: ["Ctrl-C"], ["q"], ["Ctrl-D"]. At the shell\'s prompt a key that runs the line (Enter, Ctrl-M, Ctrl-J) is refused after a key that puts text the confirmation cannot show (Up, Down, Ctrl-R, Ctrl-Y, Tab, Escape, …), in this send or an earlier one at the same prompt, or after keys a program left unread; Ctrl-O and Ctrl-X are refused. Keys for a program are refused when the keys after its read would do the same at the prompt. Send commands as input text instead.',
      ),
    timeoutMs: z.int().min(1).max(2147483647).optional().describe('Absolute time limit in milliseconds. Default 120000.'),
    background: z
      .boolean()
      .optional()
      .describe('Return at once with a jobId instead of waiting; then poll dsh_terminal_output. Default false.'),
  }),
});

/** `dsh_terminal_read`. */
export const TERMINAL_READ = declareTool({
  name: 'dsh_terminal_read',
  displayName: 'Read Agent Terminal',
  tags: ['dsh', 'terminal'],
  asksFirst: 'never',
  userDescription: "Read a page of an agent terminal's scrollback.",
  modelDescription:
    "Reads a page of a session's scrollback (everything the terminal showed, prompts and commands included) without waiting for anything; safe while a command runs. Lines are counted back from the newest line (0 = newest): the page covers [offset, offset+count) in those coordinates and is returned oldest first as a second text part. Returns JSON {sessionId, offset, lineBegin, lineEnd, totalLines, firstLineNumber, truncated, renderLimited?, nextOffset?}; for the next older page pass offset = nextOffset (= lineEnd). count defaults to 500 and is a request: a byte cap (default 256 KiB) wins and sets truncated. The scrollback keeps the newest 10000 lines / 4 MiB by default. The text is what a person saw (colours removed, progress bars collapsed); raw: true keeps the escapes; screen: true returns the visible screen instead, useful while a full-screen program such as vim or less is open (alternateScreen: true in a send result). With command (an index from dsh_terminal_history or from a send's `command`) the page is of that command's output only: offset and count count within it (0 = its newest line) and totalLines is its retained line count. With search it finds lines instead of paging: lines containing the text (regex: true: a JavaScript regular expression; ignoreCase: true: any case), newest match first, in the whole scrollback or, with command, in that command's output. A search returns JSON {sessionId, matches: [{line, offset, command?, column, text, before?, after?}], searchedLines, totalLines, nextOffset?, timedOut?, note?} and no second part: line is the absolute line number (as firstLineNumber), offset the lines back from the newest line (read around a match with offset = match.offset - 5, count 11), command the index of the command whose output holds it; context (0-10) adds that many lines before and after. Lines are matched one at a time as plain text (colours and escapes removed); shown lines are cut to 400 characters around the match. Limits: maxMatches (default 20, at most 100) per page, continue with offset = nextOffset; a search runs at most timeoutMs (default 2000, at most 10000): a pattern with catastrophic backtracking (nested quantifiers such as (a+)+ on a long line) is stopped there with timedOut: true and a note, keeping the matches found before it. Searching never holds up other calls.",
  input: z.strictObject({
    sessionId: text('line', MAX_ID_UNITS, 1).describe('Id returned by dsh_terminal_open.'),
    offset: z
      .int()
      .min(0)
      .optional()
      .describe(
        "Lines back from the newest line (of the command's output, with command) where the page ends, or where a search starts. Default 0.",
      ),
    count: z.int().min(1).optional().describe('Lines wanted. Default 500.'),
    raw: z
      .boolean()
      .optional()
      .describe('Lines as the terminal produced them, colour and cursor escapes included. Default false: the text a person saw.'),
    screen: z
      .boolean()
      .optional()
      .describe('Return the visible screen (e.g. what vim or less shows) instead of a scrollback page. Default false.'),
    command: z
      .int()
      .min(1)
      .optional()
      .describe("Read (or search) only this command's output: its index from dsh_terminal_history or a send result's `command`."),
    search: text('multiline', MAX_PATTERN_UNITS, 1)
      .optional()
      .describe('Find lines containing this text (or matching it, with regex) instead of reading a page, newest first.'),
    regex: z
      .boolean()
      .optional()
      .describe(
        'With search: the text is a JavaScript regular expression, matched against one line at a time. Default false (literal text).',
      ),
    ignoreCase: z.boolean().optional().describe('With search: match in any case. Default false.'),
    context: z.int().min(0).max(10).optional().describe('With search: lines shown before and after each match. Default 0.'),
    maxMatches: z.int().min(1).max(100).optional().describe('With search: matches in this page. Default 20.'),
    timeoutMs: z.int().min(1).max(10000).optional().describe('With search: time bound in milliseconds. Default 2000.'),
  }),
});

/** `dsh_terminal_history`. */
export const TERMINAL_HISTORY = declareTool({
  name: 'dsh_terminal_history',
  displayName: 'Agent Terminal Command History',
  tags: ['dsh', 'terminal'],
  asksFirst: 'never',
  userDescription: 'List the commands an agent terminal ran, with exit status and output range.',
  modelDescription:
    "Lists the commands a session's shell ran, newest first: what ran, who typed it, how it ended, where, and where its output is, so you can come back to a command after its send returned (e.g. the test failure from three commands ago). One record per command line the shell ran at its prompt: a multi-line paste, a loop or a heredoc is one record; typedBy says who typed it: agent (dsh_terminal_send), dsh_run, or user (the person, after taking the terminal over). Returns JSON {sessionId, commands: [{index, command, commandTruncated?, typedBy, startedAt, durationMs, state, exitCode?, signal?, cwdStart?, cwdEnd?, output: {firstLineNumber, lineCount, offset, bytes, truncated, droppedLines?, droppedBytes?}}], matching, recorded, total, nextOffset?}. state: running (no prompt since; durationMs so far), finished (exitCode is $?), interrupted (ended by a signal this session delivered: dsh_terminal_signal, a cancelled call, or Ctrl-C the user typed; signal names it, exitCode is 128+n), stopped (a signal stopped it and the shell prompted again: Ctrl-Z / SIGTSTP, kill -STOP; signal names it, there is no exitCode; fg continues it as a command of its own), session_exited (the shell exited first). Read a command's output again with dsh_terminal_read {sessionId, command: index}, or search it with dsh_terminal_read {sessionId, command: index, search}. output.truncated: the retained scrollback (default 10000 lines / 4 MiB) no longer holds the output's oldest part; droppedLines and droppedBytes say how much is gone, the rest is still readable. Filters: failed: true keeps the commands that ended with an exit code other than 0; contains keeps those whose command line contains the text (case-sensitive). Pages: count (default 20, at most 200), then offset = nextOffset. Limits: the newest 1000 commands per session are kept (setting dsh.terminal.historySize, at most 10000), each command line at most 1000 characters (commandTruncated). A line the shell refused to parse (a syntax error) never ran and is not listed. Not for output text (dsh_terminal_read) or for the sessions themselves (dsh_terminal_list). No side effects.",
  input: z.strictObject({
    sessionId: text('line', MAX_ID_UNITS, 1).describe('Id returned by dsh_terminal_open or dsh_run, e.g. "pty-1".'),
    offset: z.int().min(0).optional().describe('Matching commands to skip from the newest (nextOffset of the previous page). Default 0.'),
    count: z.int().min(1).max(200).optional().describe('Commands wanted. Default 20.'),
    failed: z.boolean().optional().describe('Only commands that ended with an exit code other than 0. Default false.'),
    contains: text('multiline', MAX_PATTERN_UNITS, 1)
      .optional()
      .describe('Only commands whose command line contains this text (case-sensitive).'),
  }),
});

/** `dsh_terminal_output`. */
export const TERMINAL_OUTPUT = declareTool({
  name: 'dsh_terminal_output',
  displayName: 'Read Background Output',
  tags: ['dsh', 'terminal'],
  asksFirst: 'never',
  userDescription: 'Read new output of a background command in an agent terminal.',
  modelDescription:
    "Returns the output a background send (dsh_terminal_send with background: true) produced since the previous call for the same jobId, and advances the cursor: calling it repeatedly yields every piece of output exactly once, independent of scrollback pages. Returns JSON {sessionId, jobId, done, result?, error?, droppedBytes} with the new output as a second text part (raw terminal text). When done is true, result holds the send's waitReason, waiting, exitCode (or stopped) and sessionStatus as dsh_terminal_send would. Output older than 1 MiB that was not read in time is dropped and counted in droppedBytes (use dsh_terminal_read for it). Has no side effects on the terminal.",
  input: z.strictObject({
    sessionId: text('line', MAX_ID_UNITS, 1).describe('Id returned by dsh_terminal_open.'),
    jobId: text('line', MAX_ID_UNITS, 1).describe('Id returned by a background dsh_terminal_send, e.g. "job-1".'),
  }),
});

/** `dsh_terminal_wait`. */
export const TERMINAL_WAIT = declareTool({
  name: 'dsh_terminal_wait',
  displayName: 'Wait for Agent Terminal',
  tags: ['dsh', 'terminal'],
  asksFirst: 'never',
  userDescription: 'Wait for a command still running in an agent terminal, without typing.',
  modelDescription:
    'Keeps waiting for the command running in a session WITHOUT typing anything, after dsh_terminal_send or dsh_run returned `timeout` or `inferred_idle` (which mean "returned for now": the command may still run). Returns exactly what a send returns (the same JSON and waitReason values, the output produced since the wait began as a second text part, the same output cap): `stdin_read` with `waiting: shell-prompt` = the command finished (`exitCode`); `program-input` = a program now waits for input (answer with dsh_terminal_send); `timeout` / `inferred_idle` = still running, wait again or signal it; `session_exit`. With `until` (a JavaScript regular expression, at most 1000 characters, `^`/`$` at line ends, matched against the new output as it arrives, as plain text with colours and escape sequences removed; a pattern that takes more than 250 ms on it, one that backtracks without bound, ends the wait with an error) it also returns as soon as a line you expect appears, e.g. a dev server\'s "ready on" line: then waitReason is `output_match`, `match` holds the matched text, and the command keeps running. With `untilListening` (a port number, or true for any port the session\'s processes did not listen on when the wait began) it returns as soon as a process of the session listens on it (TCP LISTEN or a bound UDP socket, any address, read from /proc): waitReason `port_listening`, `listened` {protocol, address, port, pid, command}; use it after starting a server (`npm run dev &`, `python3 -m http.server 8000 &`) instead of guessing from its log. Such a wait may start while the shell is at its prompt (the server runs in the background); it then returns only for the port, `timeout` or `session_exit`; waiting on a foreground server it also returns when the program waits for input or the command ends, never as `inferred_idle`. Linux only. Refused with NOTHING_TO_WAIT_FOR when no command runs (the shell is at its prompt) and no untilListening is given, and while another send or wait is in flight on the session. Cancelling the call interrupts the command (SIGINT), as for a send. timeoutMs defaults to 120000.',
  input: z.strictObject({
    sessionId: text('line', MAX_ID_UNITS, 1).describe('Id returned by dsh_terminal_open or dsh_run, e.g. "pty-1".'),
    timeoutMs: z.int().min(1).max(2147483647).optional().describe('Absolute time limit in milliseconds. Default 120000.'),
    until: text('multiline', MAX_PATTERN_UNITS, 1)
      .optional()
      .describe(
        'Return early once new output matches this JavaScript regular expression (plain text, ^ and $ at line ends), e.g. "ready on|listening on".',
      ),
    untilListening: z
      .union([z.int().min(1).max(65535), z.boolean()])
      .optional()
      .describe(
        'Return once a process of the session listens on this port (an integer 1..65535), or with true on any port none of its processes listened on when the wait began. May be used while the shell is at its prompt (a server started with &).',
      ),
  }),
});

/** `dsh_terminal_list`. */
export const TERMINAL_LIST = declareTool({
  name: 'dsh_terminal_list',
  displayName: 'List Agent Terminals',
  tags: ['dsh', 'terminal'],
  asksFirst: 'never',
  userDescription: 'List the agent terminal sessions.',
  modelDescription:
    "Lists the agent's terminal sessions: {sessions: [{sessionId, name, cwd, sessionStatus, busy, foregroundCommand?, sandbox, inputRefused?, listening, backgroundProcesses}]}. busy means a command is running (foregroundCommand names it). listening: the TCP and UDP sockets the session's processes listen on, [{protocol, address, port, pid, command}] (IPv4 and IPv6; 0.0.0.0 or :: = every address); a port that closed is gone. backgroundProcesses: every process the session started that still runs other than its shell, [{pid, command, detached?}], including those that left it with setsid, nohup & disown or a daemon's double fork (detached: true), found by a mark in their environment; closing the session ends them all unless dsh_terminal_close is given keep: true. On a machine without /proc, listening says it is not available. sandbox is the agent sandbox the session runs in (on: false outside any). inputRefused says why the session takes no input now (it runs outside the agent sandbox, which the user turned on since): its output can still be read, signalled and closed; open a new session to go on. Use it to find a session id again, to see which sessions are free and which servers run; it has no side effects.",
  input: z.strictObject({}),
});

/** `dsh_terminal_close`. */
export const TERMINAL_CLOSE = declareTool({
  name: 'dsh_terminal_close',
  displayName: 'Close Agent Terminal',
  tags: ['dsh', 'terminal'],
  asksFirst: 'always',
  userDescription: 'Close an agent terminal and everything running in it.',
  modelDescription:
    "Closes a session: ends the shell and every process it started, background jobs and servers included, also those that left the session with setsid, nohup & disown or a daemon's double fork (found by a mark in their environment; SIGTERM, then SIGKILL), and frees its terminal. A process started outside DSH Bridge or in another session is never touched. With keep: true only the shell and its foreground command end and the background processes keep running (e.g. a dev server the user wants to keep; redirect its output first, its terminal goes away); the user can list and stop them later. keep defaults to the user's chat.tools.terminal.detachBackgroundProcesses setting (off by default). Returns {sessionId, closed, ended: [{pid, command, detached?}], kept?: [...], keepRefused?}; closed is false when it was already closed. In the agent sandbox keep is refused (keepRefused says so): the sandbox's processes end with it. Use it when done with a session; its scrollback is gone afterwards. A session the user has taken over closes only if they confirm; otherwise the call fails and the session keeps running.",
  input: z.strictObject({
    sessionId: text('line', MAX_ID_UNITS, 1).describe('Id returned by dsh_terminal_open.'),
    keep: z
      .boolean()
      .optional()
      .describe(
        "Leave the session's background processes running (the shell and its foreground command still end). Default: the user's chat.tools.terminal.detachBackgroundProcesses setting, off unless they turned it on.",
      ),
  }),
});

/** `dsh_terminal_signal`. */
export const TERMINAL_SIGNAL = declareTool({
  name: 'dsh_terminal_signal',
  displayName: 'Signal Agent Terminal',
  tags: ['dsh', 'terminal'],
  asksFirst: 'always',
  userDescription: 'Interrupt or stop the command running in an agent terminal.',
  modelDescription:
    'Delivers a real signal to the foreground process group of a session (the running command and its pipeline), never to anything outside the session. Use SIGINT to interrupt a command as Ctrl-C would (it also works on programs in raw mode, where typing Ctrl-C would not), SIGTERM or SIGKILL to end a stuck one, SIGTSTP/SIGCONT to pause and resume. Allowed: SIGINT, SIGTERM, SIGKILL, SIGQUIT, SIGHUP, SIGTSTP, SIGCONT. Returns {sessionId, signal, delivered, foreground: {pid, command}}; then use dsh_terminal_send or dsh_terminal_read to see the effect (a full-screen program such as less may ignore SIGINT: send its quit key instead).',
  input: z.strictObject({
    sessionId: text('line', MAX_ID_UNITS, 1).describe('Id returned by dsh_terminal_open.'),
    signal: z.enum(ALLOWED_SIGNALS).describe('Signal name.'),
  }),
});
