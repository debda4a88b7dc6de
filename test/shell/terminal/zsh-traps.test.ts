/**
 * zsh's own traps on the real pty-zsh backend, each with a real startup file in a fresh HOME: the
 * options and prompt features that change what zsh prints around a command (PROMPT_SP, RPROMPT,
 * TRANSIENT_RPROMPT, multi-line prompts, PRINT_EXIT_VALUE, NO_NOTIFY, MONITOR, ERR_EXIT),
 * spelling correction, startup files that print, exec another shell or hold back output (an
 * Oh My Zsh-like theme, a Powerlevel10k-like instant prompt), line-editor hooks that would alter
 * what was typed (stand-ins for bracketed-paste-magic, zsh-autosuggestions,
 * zsh-syntax-highlighting), the person's PATH and ZDOTDIR, and their history file.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Harness, harness } from '../../helpers/terminalHarness';

/** A fresh HOME under `tmp` with the given files (relative path → content; `bin/…` files are executable). */
function homeWith(tmp: string, files: Record<string, string>): string {
  const home = fs.mkdtempSync(path.join(tmp, 'home-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(home, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content, { mode: name.startsWith('bin/') || name.includes('/bin/') ? 0o755 : 0o644 });
  }
  return home;
}

describe('zsh traps (pty-zsh, real startup files)', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  const send = (input: string, timeoutMs = 15_000) => h.service.send(h.owner, id, { input, timeoutMs });
  const openWith = async (files: Record<string, string>, env: Record<string, string | null> = {}) => {
    const home = homeWith(h.tmp, files);
    id = (await h.service.open(h.owner, { env: { HOME: home, ...env }, cwd: home })).sessionId;
    return home;
  };

  beforeEach(() => {
    h = harness({ quietThresholdMs: 6_000 }, {}, 'zsh');
  });
  afterEach(async () => h.dispose());

  it('PROMPT_SP and PROMPT_EOL_MARK set by the person: printf hello gives exactly hello, no %', async () => {
    await openWith({ '.zshrc': "setopt prompt_sp prompt_cr\nPROMPT_EOL_MARK='%B%S%#%s%b'\n" });
    const r = await send('printf hello');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.output, 'hello');
    assert.equal((await send('printf hello; setopt prompt_sp')).output, 'hello');
    assert.equal((await send('echo next')).output, 'next');
  });

  it('RPROMPT and TRANSIENT_RPROMPT: the right prompt never reads as output', async () => {
    await openWith({ '.zshrc': "setopt transient_rprompt\nRPROMPT='[RIGHT-%T]'\nRPROMPT2='[RIGHT2]'\n" });
    const r = await send('echo hello');
    assert.equal(r.output, 'hello');
    await send(`RPROMPT='[AGAIN]'`);
    const again = await send('echo two');
    assert.equal(again.output, 'two');
    // The typed `RPROMPT='[AGAIN]'` echoes; no right prompt is drawn anywhere.
    const page = h.service.read(h.owner, id).text;
    assert.doesNotMatch(page, /RIGHT/);
    assert.equal(page.match(/AGAIN/g)?.length, 1);
  });

  it("a multi-line theme prompt with a precmd that prints: the controlled prompt wins; the output is the command's", async () => {
    const theme = [
      'setopt prompt_subst',
      "PROMPT=$'%F{cyan}%n@%m%f %F{yellow}%~%f\\n%F{green}\\u276f%f '",
      "RPROMPT='%(?..%F{red}%?%f) %T'",
      'theme_precmd() { print -P "%F{blue}-- theme line --%f" }',
      'autoload -Uz add-zsh-hook',
      'add-zsh-hook precmd theme_precmd',
      'setopt correct',
    ].join('\n');
    await openWith({ '.oh-my-zsh/themes/dsh.zsh-theme': theme, '.zshrc': 'ZSH=$HOME/.oh-my-zsh\nsource $ZSH/themes/dsh.zsh-theme\n' });
    const r = await send('echo hello');
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.output, 'hello');
    const failed = await send('false');
    assert.equal(failed.exitCode, 1);
    assert.equal(failed.output, '');
  });

  it('setopt correct: the correction question is a program waiting for input; answering n runs what was typed', async () => {
    const home = await openWith({
      '.zshrc': 'setopt correct\nexport PATH=$HOME/bin:$PATH\n',
      'bin/dshtool': '#!/bin/sh\necho "tool ran: $0"\n',
    });
    assert.match((await send('dshtool')).output, /tool ran/);
    const r = await send('dshtoll');
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'program-input');
    assert.match(r.output, /correct 'dshtoll' to 'dshtool'/);
    const answer = await send('y');
    assert.equal(answer.waiting, 'shell-prompt');
    assert.match(answer.output, new RegExp(`tool ran: ${home}/bin/dshtool`));
  });

  it('PRINT_EXIT_VALUE: the exit code is right, and the prompt\'s own code prints no "zsh: exit"', async () => {
    await openWith({ '.zshrc': 'setopt print_exit_value\n' });
    const ok = await send('echo ok');
    assert.equal(ok.output, 'ok');
    const failed = await send('false');
    assert.equal(failed.exitCode, 1);
    assert.equal(failed.output, 'zsh: exit 1');
    assert.equal((await send('echo after')).output, 'after');
    // The person's option reports `false` once; nothing the prompt's own code runs is reported.
    assert.equal(h.service.read(h.owner, id).text.match(/zsh: exit/g)?.length, 1);
  });

  it('ERR_EXIT and NO_UNSET set by the person: the prompt keeps working; a failing command ends the shell with its code', async () => {
    await openWith({ '.zshrc': 'setopt err_exit no_unset ksh_arrays sh_word_split\n' });
    assert.equal((await send('echo ok')).output, 'ok');
    assert.equal((await send('echo again')).output, 'again');
    const r = await send('false');
    assert.equal(r.waitReason, 'session_exit');
    assert.deepEqual(r.sessionStatus, { kind: 'exited', exitCode: 1, signal: null });
  });

  it("XTRACE (set -x): the prompt's own hooks trace nothing into the output", async () => {
    await openWith({});
    await send('set -x');
    const r = await send('echo traced');
    assert.equal(r.waiting, 'shell-prompt');
    assert.deepEqual(
      r.output.split('\n').filter((l) => !/^\+zsh:\d+> echo traced$/.test(l)),
      ['traced'],
    );
    await send('set +x');
    assert.equal((await send('echo quiet')).output, 'quiet');
  });

  it("NO_NOTIFY: a background job's end is reported before the next prompt, and readiness holds", async () => {
    await openWith({ '.zshrc': 'setopt no_notify\n' });
    const bg = await send('sleep 0.3 &');
    assert.equal(bg.waiting, 'shell-prompt');
    const r = await send('sleep 1; echo after');
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'shell-prompt');
    assert.match(r.output, /after/);
    assert.equal((await send('echo clean')).output, 'clean');
  });

  it('NO_MONITOR: without job control a program reading the terminal is never taken for the shell at its prompt; answers reach it; SIGINT ends a command', async () => {
    await openWith({ '.zshrc': 'unsetopt monitor\n' });
    // The program runs in the shell's own process group, where only the shell's own reads answer
    // (readiness.ts): the send returns on quiet, never as the shell's prompt.
    const r = await send(`python3 -c "n=input('Name: '); print('hi', n)"`);
    assert.equal(r.waitReason, 'inferred_idle');
    assert.notEqual(r.waiting, 'shell-prompt');
    assert.match(r.output, /Name: $/);
    const answer = await send('Bob');
    assert.equal(answer.waiting, 'shell-prompt');
    assert.match(answer.output, /hi Bob/);
    const sleeping = await send('sleep 30', 1000);
    assert.notEqual(sleeping.waitReason, 'stdin_read');
    assert.equal(h.service.signal(h.owner, id, 'SIGINT').delivered, true);
    const back = await send('echo back');
    assert.equal(back.waiting, 'shell-prompt');
    assert.match(back.output, /back$/);
  });

  it("a .zshrc that prints a banner: open succeeds, the banner is the message of the day, not a command's output", async () => {
    await openWith({ '.zshrc': 'echo "Welcome to the DSH test banner"\n' });
    assert.match(h.service.motd(h.owner, id), /Welcome to the DSH test banner/);
    assert.equal((await send('echo hello')).output, 'hello');
  });

  it('a .zshrc that execs another shell: the open fails naming the file and the guard', async () => {
    const home = homeWith(h.tmp, { '.zshrc': 'exec bash --norc\n' });
    await assert.rejects(
      h.service.open(h.owner, { env: { HOME: home }, cwd: home }),
      (e: Error & { code?: string }) =>
        e.code === 'SPAWN_FAILED' && e.message.includes(path.join(home, '.zshrc')) && /DSH_BRIDGE_SESSION/.test(e.message),
    );
  });

  it('a Powerlevel10k-like instant prompt (prints before .zshrc finishes, holds stdout until the first prompt): open and sends work', async () => {
    const instant = [
      '# instant prompt stand-in: draws a prompt at once, then hides the rest of startup output',
      "print -n $'\\e[34m~/project\\e[0m\\n\\u276f '",
      'typeset -gi __p9k_fd',
      'exec {__p9k_fd}>&1 1>/dev/null',
      'p9k_restore() { exec 1>&$__p9k_fd {__p9k_fd}>&-; add-zsh-hook -d precmd p9k_restore }',
      'autoload -Uz add-zsh-hook',
      'add-zsh-hook precmd p9k_restore',
    ].join('\n');
    await openWith({
      '.cache/p10k-instant-prompt.zsh': instant,
      '.zshrc':
        "source ~/.cache/p10k-instant-prompt.zsh\necho \"hidden startup output\"\nsleep 0.5\nPROMPT='%F{blue}%~%f \\u276f '\nRPROMPT='%T'\n",
    });
    const r = await send('echo hello');
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.output, 'hello');
    assert.equal((await send('echo $((6*7))')).output, '42');
  });

  it('line-editor hooks (paste magic, autosuggestions, syntax highlighting stand-ins) do not alter what was typed', async () => {
    const plugins = [
      // bracketed-paste-magic/url-quote-magic stand-in: quotes ? & and uppercases what is pasted.
      'my-paste() { zle .bracketed-paste; LBUFFER=${LBUFFER//\\?/\\\\?}; BUFFER=${(U)BUFFER} }',
      'zle -N bracketed-paste my-paste',
      // autosuggestions stand-in: a suggestion shown after the cursor, and a self-insert wrapper.
      'my-suggest() { POSTDISPLAY=" --suggested-tail" }',
      'zle -N zle-line-pre-redraw my-suggest',
      'my-insert() { zle .self-insert; BUFFER+="X" }',
      'zle -N self-insert my-insert',
      // syntax-highlighting stand-in: colours the whole line.
      'my-highlight() { region_highlight=("0 ${#BUFFER} fg=red") }',
      'zle -N zle-line-init my-highlight',
      // a kill-whole-line of its own that leaves text behind.
      'my-kill() { BUFFER="rm -rf /nonexistent-dsh; " }',
      'zle -N kill-whole-line my-kill',
    ].join('\n');
    await openWith({ '.zshrc': `${plugins}\n` });
    const r = await send(`echo 'a?b&c' "x y"`);
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.output, 'a?b&c x y');
    assert.doesNotMatch(r.output, /suggested-tail/);
    const history = h.service.history(h.owner, id, {});
    assert.match(JSON.stringify(history), /echo 'a\?b&c' \\"x y\\"/);
  });

  it('a .zshrc that puts node (a stub) on PATH only in zsh: the session finds it', async () => {
    await openWith({ '.zshrc': 'export PATH=$HOME/.nvm/bin:$PATH\n', '.nvm/bin/node': '#!/bin/sh\necho "stub node $*"\n' });
    assert.equal((await send('node --version')).output, 'stub node --version');
  });

  it("the person's ZDOTDIR (set in ~/.zshenv) is followed for every later file and kept in the session", async () => {
    const home = await openWith({
      '.zshenv': 'export ZDOTDIR=$HOME/.config/zsh\n',
      '.config/zsh/.zprofile': 'export FROM_ZPROFILE=1\n',
      '.config/zsh/.zshrc': 'export FROM_ZSHRC=1\n',
      '.config/zsh/.zlogin': 'export FROM_ZLOGIN=1\n',
    });
    const r = await send('echo "$ZDOTDIR $FROM_ZPROFILE$FROM_ZSHRC$FROM_ZLOGIN"');
    assert.equal(r.output, `${home}/.config/zsh 111`);
  });

  it('an inherited ZDOTDIR is the one whose files are read, and the session keeps it', async () => {
    const home = homeWith(h.tmp, { 'zd/.zshrc': 'export FROM_ZSHRC=yes\n' });
    id = (await h.service.open(h.owner, { env: { HOME: home, ZDOTDIR: path.join(home, 'zd') }, cwd: home })).sessionId;
    assert.equal((await send('echo "$ZDOTDIR $FROM_ZSHRC"')).output, `${home}/zd yes`);
    assert.equal((await send('env | grep -c ^ZDOTDIR=')).output, '1');
  });

  it("agent commands stay out of the person's HISTFILE", async () => {
    const home = await openWith({
      '.zshrc': 'HISTFILE=~/.zsh_history\nHISTSIZE=100\nSAVEHIST=100\nsetopt inc_append_history share_history\n',
      '.zsh_history': ': 1:0;old command\n',
    });
    await send('echo agent-secret-command');
    await h.service.close(h.owner, id);
    assert.doesNotMatch(fs.readFileSync(path.join(home, '.zsh_history'), 'utf8'), /agent-secret-command/);
  });

  it("the shell's aliases with their text, global and suffix aliases and functions are reported (a first word that is one of them runs no program of that name)", async () => {
    await openWith({ '.zshrc': "alias ll='ls -l'\nalias -g G='| grep'\nalias -s txt=cat\ngit() { command git \"$@\"; }\n" });
    await send(`alias rmx='rm -rf'; alias q="it's"; alias nl=$'echo a\\n--dsh-traps\\nb'; myfn() { :; }`);
    const names = h.service.sendTarget(h.owner, id).shellNames;
    assert.equal(names?.kind, 'known', JSON.stringify(names));
    if (names?.kind !== 'known') return;
    for (const alias of ['ll', 'rmx', 'q', 'nl']) assert.ok(names.aliases.includes(alias), `${alias} in ${names.aliases.join(' ')}`);
    assert.equal(names.aliasValues.ll, 'ls -l');
    assert.equal(names.aliasValues.q, "it's");
    assert.equal(names.aliasValues.nl, 'echo a\n--dsh-traps\nb');
    assert.deepEqual(names.globalAliases, ['G']);
    assert.deepEqual(names.suffixAliases, ['txt']);
    assert.equal(h.service.sendTarget(h.owner, id).traps, undefined, 'a value holding the report delimiter does not start the traps early');
    for (const fn of ['git', 'myfn']) assert.ok(names.functions.includes(fn), `${fn} in ${names.functions.join(' ')}`);
    await send(`eval "function $'two\\nlines' { :; }"`);
    assert.equal(h.service.sendTarget(h.owner, id).shellNames?.kind, 'unknown');
  });

  it('zsh traps and TRAPxxx functions are reported for confirmations', async () => {
    await openWith({});
    assert.equal(h.service.sendTarget(h.owner, id).traps, undefined);
    await send(`trap 'cd /tmp' INT`);
    const set = h.service.sendTarget(h.owner, id).traps;
    assert.equal(set?.kind, 'set');
    assert.match(set?.kind === 'set' ? set.text : '', /trap -- 'cd \/tmp' INT/);
    await send(`trap - INT; TRAPUSR1() { cd /; }`);
    const fn = h.service.sendTarget(h.owner, id).traps;
    assert.equal(fn?.kind, 'set');
    assert.match(fn?.kind === 'set' ? fn.text : '', /TRAPUSR1/);
    await send('unfunction TRAPUSR1');
    assert.equal(h.service.sendTarget(h.owner, id).traps, undefined);
  });

  it("precmd and preexec hooks besides DSH Bridge's are reported for confirmations, and the prompt's own strings cannot be changed", async () => {
    await openWith({ '.zshrc': 'theme_precmd() { :; }\nprecmd_functions+=(theme_precmd)\n' });
    const mine = h.service.sendTarget(h.owner, id).traps;
    assert.deepEqual(mine, { kind: 'set', text: "precmd_functions: 'theme_precmd' (set up by the startup files)", startupHooksOnly: true });
    await send(`hidden() { touch ${h.tmp}/hook-ran; }; preexec_functions+=(hidden); preexec() { :; }`);
    const set = h.service.sendTarget(h.owner, id).traps;
    assert.deepEqual(set, {
      kind: 'set',
      text: "precmd_functions: 'theme_precmd' (set up by the startup files)\npreexec_functions: 'hidden'\npreexec: '\t:'",
    });
    await send(`preexec_functions=(\${preexec_functions:#hidden}); unfunction preexec; __dsh_ps1+='$(touch ${h.tmp}/ps1-ran)'`);
    await send('true');
    assert.equal(fs.existsSync(path.join(h.tmp, 'ps1-ran')), false);
    assert.deepEqual(h.service.sendTarget(h.owner, id).traps, mine);
  });
});

describe('pty-zsh on the portable path (ps(1), no /proc probe: as on macOS)', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => {
    h = harness({ quietThresholdMs: 3_000 }, { probe: false }, 'zsh');
  });
  afterEach(async () => h.dispose());

  it('the controlled prompt alone answers: output, exit codes, continuation, printf without a newline', async () => {
    const { sessionId } = await h.service.open(h.owner, {});
    const send = (input: string) => h.service.send(h.owner, sessionId, { input, timeoutMs: 15_000 });
    const r = await send('echo hello');
    assert.equal(r.probe, 'unavailable');
    assert.deepEqual([r.waitReason, r.waiting, r.output, r.exitCode], ['stdin_read', 'shell-prompt', 'hello', 0]);
    assert.equal((await send('printf hello')).output, 'hello');
    assert.equal((await send('false')).exitCode, 1);
    const open = await send(`echo "unterminated`);
    assert.equal(open.waiting, 'shell-continuation');
    assert.equal(h.service.signal(h.owner, sessionId, 'SIGINT').delivered, true);
    assert.equal((await send('echo back')).output, 'back');
  });

  it('a program waiting for input without a probe: inferred_idle after the quiet threshold, never a false shell prompt', async () => {
    const { sessionId } = await h.service.open(h.owner, {});
    const r = await h.service.send(h.owner, sessionId, { input: `python3 -c "input('Name: ')"`, timeoutMs: 15_000 });
    assert.equal(r.waitReason, 'inferred_idle');
    assert.match(r.output, /Name: $/);
    h.service.signal(h.owner, sessionId, 'SIGINT');
  });

  it('a .zshrc that execs another shell is told through ps(1)', async () => {
    const home = homeWith(h.tmp, { '.zshrc': 'exec sleep 60\n' });
    await assert.rejects(
      h.service.open(h.owner, { env: { HOME: home } }),
      (e: Error & { code?: string }) => e.code === 'SPAWN_FAILED' && /sleep 60/.test(e.message),
    );
  });
});

describe("chat.tools.terminal.preventShellHistory in both shells (the person's HISTFILE)", function () {
  this.timeout(60_000);
  const rc = {
    bash: 'HISTFILE=~/.bash_history\nHISTSIZE=100\nPROMPT_COMMAND="history -a${PROMPT_COMMAND:+;$PROMPT_COMMAND}"\n',
    zsh: 'HISTFILE=~/.zsh_history\nHISTSIZE=100\nSAVEHIST=100\nsetopt inc_append_history\n',
  };
  for (const shell of ['bash', 'zsh'] as const) {
    for (const prevent of [true, false]) {
      it(`${shell}, preventShellHistory ${prevent}: the agent's command ${prevent ? 'never reaches' : 'reaches'} the history file`, async () => {
        const h = harness({}, { preventShellHistory: () => prevent }, shell);
        try {
          const file = shell === 'zsh' ? '.zsh_history' : '.bash_history';
          const home = homeWith(h.tmp, { [shell === 'zsh' ? '.zshrc' : '.bashrc']: rc[shell], [file]: '' });
          const { sessionId } = await h.service.open(h.owner, { env: { HOME: home }, cwd: home });
          await h.service.send(h.owner, sessionId, { input: 'echo agent-history-probe' });
          await h.service.send(h.owner, sessionId, { input: 'echo next' });
          await h.service.close(h.owner, sessionId);
          const saved = fs.readFileSync(path.join(home, file), 'utf8');
          if (prevent) assert.doesNotMatch(saved, /agent-history-probe/);
          else assert.match(saved, /agent-history-probe/);
        } finally {
          await h.dispose();
        }
      });
    }
  }
});
