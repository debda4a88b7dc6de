// The rules of chat.tools.terminal.autoApprove as VS Code's setting description gives them: scopes
// merged key by key with `null` unsetting, `/…/flags` keys compiled, `(?-i:…)` read by engines
// without modifier groups, and a denying expression that does not compile denying everything.
import * as assert from 'node:assert/strict';
import { compileRule, matchEnd, mergeRuleLayers, ruleProgram, rulesFrom } from '../../../src/approval/rules';

const rule = (key: string, approve = true) => compileRule({ key, approve, matchCommandLine: false, source: 'settings' });

describe('auto-approve rules', () => {
  it('later scopes replace earlier keys; null and {approve: null} unset a default or a lower scope', () => {
    const merged = mergeRuleLayers([
      { rm: false, ls: true, cat: true },
      { rm: null, git: true },
      { cat: { approve: null }, ls: false },
    ]);
    assert.deepEqual(merged, { ls: false, git: true });
  });

  it('values that are not a rule are left out and named', () => {
    const { rules, ignored } = rulesFrom({ a: true, b: 'yes', c: { approve: false, matchCommandLine: true }, d: 3 }, () => 'settings');
    assert.deepEqual(
      rules.map((r) => [r.key, r.approve, r.matchCommandLine]),
      [
        ['a', true, false],
        ['c', false, true],
      ],
    );
    assert.deepEqual(ignored, ['b', 'd']);
  });

  it('prefix keys match whole words; path keys their ./ and backslash forms', () => {
    assert.equal(matchEnd(rule('git status'), 'git status -s'), 10);
    assert.equal(matchEnd(rule('git status'), 'git statusx'), undefined);
    assert.equal(matchEnd(rule('bin/test.sh'), './bin/test.sh --fast'), 13);
    assert.equal(matchEnd(rule('bin/test.sh'), 'bin\\test.sh'), 11);
  });

  it('/…/flags keys: flags kept but g and y; (?-i:…) without the i flag compiles where modifier groups do not', () => {
    assert.equal(rule('/^git status/i').regex?.flags, 'i');
    assert.equal(rule('/^a/gy').regex?.flags, '');
    const modifier = rule('/^git(\\s+(-(?-i:C)\\s+\\S+))*\\s+status\\b/');
    assert.equal(modifier.invalid, undefined);
    assert.notEqual(matchEnd(modifier, 'git -C repo status'), undefined);
  });

  it('an expression that does not compile: approving matches nothing, denying matches everything', () => {
    assert.equal(matchEnd(rule('/(/', true), 'ls'), undefined);
    assert.equal(matchEnd(rule('/(/', false), 'ls'), 2);
  });

  it('the program a denying rule is about', () => {
    assert.equal(ruleProgram(rule('rm', false)), 'rm');
    assert.equal(ruleProgram(rule('/^find\\b.*\\s-(delete|exec)\\b/', false)), 'find');
    assert.equal(ruleProgram(rule('/^npm\\s+ci\\s+\\S/', false)), 'npm');
    assert.equal(ruleProgram(rule('/\\.ps1/i', false)), undefined);
    assert.equal(ruleProgram(rule('/^ls(x)|rm/', false)), undefined, 'an alternation outside a group matches other programs');
    assert.equal(ruleProgram(rule('/^ls(x|y)/', false)), 'ls');
    assert.equal(matchEnd(rule('/^ls(x)|rm/', false), 'rm -rf /'), 2);
  });
});
