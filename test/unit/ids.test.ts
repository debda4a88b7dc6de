/**
 * The ids of src/common/ids.ts against package.json `contributes`, in both directions, and the ids
 * the integration tests spell out against both. The tool names are checked against the tool
 * registry by test/integration/tools.test.ts (the registry loads only in an extension host).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND, MCP_SERVER_DEFINITION_PROVIDER, SETTING, TERMINAL_SETTINGS_SECTION } from '../../src/common/ids';
import { element } from '../helpers/element';
import { packageJson } from '../helpers/packageJson';

const ROOT = path.join(__dirname, '../..');
const pkg = packageJson();
const contributes = pkg.contributes;

const sorted = (values: Iterable<string>) => [...values].sort();

describe('ids and package.json', () => {
  it('every contributed tool is contributed once', () => {
    const contributed: string[] = contributes.languageModelTools.map((t: { name: string }) => t.name);
    assert.equal(new Set(contributed).size, contributed.length, 'a tool is contributed twice');
  });

  it('every contributed command has a constant, and every command constant is contributed', () => {
    const contributed: string[] = contributes.commands.map((c: { command: string }) => c.command);
    assert.deepEqual(sorted(Object.values(COMMAND)), sorted(contributed));
    assert.equal(new Set(contributed).size, contributed.length, 'a command is contributed twice');
  });

  it('every contributed setting has a constant, and every setting constant is contributed', () => {
    const contributed = Object.keys(contributes.configuration.properties);
    assert.deepEqual(sorted(Object.values(SETTING)), sorted(contributed));
    for (const key of pkg.capabilities.untrustedWorkspaces.restrictedConfigurations) {
      assert.ok((Object.values(SETTING) as string[]).includes(key), `restricted setting ${key} is not a setting`);
    }
    const terminalKeys = contributed.filter((k) => k.startsWith(`${TERMINAL_SETTINGS_SECTION}.`));
    assert.ok(terminalKeys.length > 0, `no setting under ${TERMINAL_SETTINGS_SECTION}`);
  });

  it('the MCP server definition provider id is the contributed one', () => {
    assert.deepEqual(
      contributes.mcpServerDefinitionProviders.map((p: { id: string }) => p.id),
      [MCP_SERVER_DEFINITION_PROVIDER],
    );
  });

  it('the integration tests name only contributed tools, commands and settings', () => {
    const dir = path.join(ROOT, 'test/integration');
    const known = new Set<string>([
      ...contributes.languageModelTools.map((t) => t.name),
      ...Object.values(COMMAND),
      ...Object.values(SETTING),
      TERMINAL_SETTINGS_SECTION,
      `${pkg.publisher}.${pkg.name}`, // the extension's own id
      'dsh_nope', // a name no tool has, for the MCP "no tool named" error
    ]);
    const unknown: string[] = [];
    let seen = 0;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/['"`](dsh_[a-z_]+|dsh\.[A-Za-z.-]+)['"`]/g)) {
        seen++;
        const id = element(m, 1, 'quoted id');
        if (!known.has(id)) unknown.push(`${file}: ${id}`);
      }
    }
    assert.ok(seen > 50, `only ${seen} ids found in test/integration: the pattern no longer matches how the tests spell them`);
    assert.deepEqual(unknown, []);
  });
});
