// The aliases and functions a session's shell reports at every prompt (src/terminal/readiness/shellNames.ts),
// on a real pty-bash session: a first word that is one of them is not the program a rule names.
import * as assert from 'node:assert/strict';
import { readShellTraps } from '../../../../src/terminal/readiness/shellTraps';
import { readShellNames } from '../../../../src/terminal/readiness/shellNames';
import { harnessPerTest } from '../../../helpers/terminalHarness';

describe('shell names: the aliases and functions a session defines', function () {
  const h = harnessPerTest();

  it('a fresh session reports its names; an alias and a function defined later are in the next report, an unalias removes one', async () => {
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
    const first = h.service.sendTarget(h.owner, sessionId).shellNames;
    assert.equal(first?.kind, 'known');
    assert.ok(first?.kind === 'known' && !first.aliases.includes('ls'));
    await h.service.send(h.owner, sessionId, { input: "alias ls='rm -rf'; greet() { echo hi; }" });
    const after = h.service.sendTarget(h.owner, sessionId).shellNames;
    assert.ok(after?.kind === 'known', JSON.stringify(after));
    assert.ok(after.aliases.includes('ls'), JSON.stringify(after));
    assert.ok(after.functions.includes('greet'), JSON.stringify(after));
    await h.service.send(h.owner, sessionId, { input: 'unalias ls; unset -f greet' });
    const removed = h.service.sendTarget(h.owner, sessionId).shellNames;
    assert.ok(
      removed?.kind === 'known' && !removed.aliases.includes('ls') && !removed.functions.includes('greet'),
      JSON.stringify(removed),
    );
  });

  it("reports each alias's text as bash's alias -p quotes it: quotes, line ends, a leading dash, the report's own lines", async () => {
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
    await h.service.send(h.owner, sessionId, {
      input: `alias ls='ls --color=auto'; alias q="it's"; alias -- -x='cd -'; alias nl=$'echo a\\n--functions\\n--end\\n--dsh-traps\\ntrap -- \\'\\' EXIT'`,
    });
    const names = h.service.sendTarget(h.owner, sessionId).shellNames;
    assert.ok(names?.kind === 'known', JSON.stringify(names));
    assert.deepEqual(
      { ls: names.aliasValues.ls, q: names.aliasValues.q, x: names.aliasValues['-x'], nl: names.aliasValues.nl },
      { ls: 'ls --color=auto', q: "it's", x: 'cd -', nl: "echo a\n--functions\n--end\n--dsh-traps\ntrap -- '' EXIT" },
    );
    assert.deepEqual([names.globalAliases, names.suffixAliases], [[], []]);
    assert.equal(h.service.sendTarget(h.owner, sessionId).traps, undefined, 'the text in an alias is not read as a trap');
    await h.service.send(h.owner, sessionId, { input: "trap 'cd /' USR1" });
    assert.equal(h.service.sendTarget(h.owner, sessionId).traps?.kind, 'set', 'a real trap after such an alias is still seen');
  });

  it('an alias stays known by name when the alias builtin is disabled (its text is then unknown)', async () => {
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
    await h.service.send(h.owner, sessionId, { input: "alias ls='rm -rf'; enable -n alias" });
    const names = h.service.sendTarget(h.owner, sessionId).shellNames;
    assert.ok(names?.kind === 'known' && names.aliases.includes('ls') && !Object.hasOwn(names.aliasValues, 'ls'), JSON.stringify(names));
  });

  it('a function named builtin (which could answer the report) makes the names unknown', async () => {
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
    await h.service.send(h.owner, sessionId, { input: 'builtin() { command builtin "$@"; }' });
    assert.deepEqual(h.service.sendTarget(h.owner, sessionId).shellNames, { kind: 'unknown' });
  });

  it('a report from another prompt, one not whole, or one without its delimiter is unknown; the traps after the names read as before', () => {
    const report = (seq: number, names: string, traps = '') => `${seq}\n${names ? `--names\n${names}` : ''}--dsh-traps\n${traps}`;
    const known = (aliases: string[], aliasValues: Record<string, string>, functions: string[]) => ({
      kind: 'known',
      aliases,
      aliasValues,
      globalAliases: [],
      suffixAliases: [],
      functions,
    });
    assert.deepEqual(
      readShellNames(report(4, "ll\n--values\nalias ll='ls -l'\n--functions\nf\n--end\n"), 5),
      known(['ll'], { ll: 'ls -l' }, ['f']),
    );
    assert.deepEqual(
      readShellNames(report(4, 'll\n--values\n--functions\nf\n--end\n'), 5),
      known(['ll'], {}, ['f']),
      'a name without its text',
    );
    assert.deepEqual(
      readShellNames(report(4, "ll\n--values\nalias rm='ls'\n--functions\n--end\n"), 5),
      { kind: 'unknown' },
      'a text for a name compgen did not list',
    );
    assert.deepEqual(
      readShellNames(report(4, "ll\n--values\nalias ll='ls\n--functions\n--end\n"), 5),
      { kind: 'unknown' },
      'an unclosed quote',
    );
    assert.deepEqual(readShellNames(report(3, 'll\n--values\n--functions\nf\n--end\n'), 5), { kind: 'unknown' });
    assert.deepEqual(readShellNames(report(4, 'll\n--values\n--functions\nf\n'), 5), { kind: 'unknown' });
    assert.deepEqual(readShellNames(report(4, ''), 5), { kind: 'unknown' }, 'no compgen: no names section');
    assert.deepEqual(readShellNames('4\nll\n--functions\n--end\n', 5), { kind: 'unknown' }, 'no delimiter');
    assert.deepEqual(readShellNames(undefined, 5), { kind: 'unknown' });
    const withTraps = report(4, '--values\n--functions\n--end\n', "trap -- 'cd /' SIGUSR1\n");
    assert.deepEqual(readShellNames(withTraps, 5), known([], {}, []));
    assert.deepEqual(readShellTraps(withTraps, 5), { kind: 'set', text: "trap -- 'cd /' SIGUSR1" });
    assert.deepEqual(readShellTraps(report(4, '--values\n--functions\nf\n--end\n'), 5), { kind: 'none' });
    assert.deepEqual(
      readShellTraps(report(4, "--values\nalias x='a\n--functions\n--end\n"), 5),
      { kind: 'unknown' },
      'a names section not well formed hides where the traps start',
    );
    // An alias's text that looks like the hooks part cannot mark a hook added later as the startup files'.
    const forged = report(
      4,
      "x\n--values\nalias x='a\n--hooks\n=PROMPT_COMMAND evil\nb'\n--functions\n--end\n--hooks\nPROMPT_COMMAND evil\n",
    );
    assert.equal(readShellNames(forged, 5).kind, 'known');
    assert.deepEqual(readShellTraps(forged, 5), { kind: 'set', text: "PROMPT_COMMAND: 'evil'" });
  });
});
