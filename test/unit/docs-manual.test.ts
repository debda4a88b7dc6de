// The manual states what the code declares: docs/tools.md lists each tool's input fields as
// package.json declares them (the one declaration Copilot and MCP clients get), and the README,
// the extension's page, stays short.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageJson } from '../helpers/packageJson';

const ROOT = path.join(__dirname, '../..');

/** The rows `| \`field\` | type | yes/no | … |` under each `### \`tool\`` heading of docs/tools.md's Inputs. */
function documentedInputs(): Map<string, Map<string, boolean>> {
  const text = fs.readFileSync(path.join(ROOT, 'docs/tools.md'), 'utf8');
  const inputs = text.slice(text.indexOf('\n## Inputs\n'));
  const tools = new Map<string, Map<string, boolean>>();
  let current: Map<string, boolean> | undefined;
  for (const line of inputs.split('\n')) {
    const heading = /^### `(\w+)`$/.exec(line);
    if (heading) tools.set(heading[1]!, (current = new Map<string, boolean>()));
    const row = /^\| `(\w+)` \| [^|]*(?:\\\|[^|]*)* \| (yes|no) \|/.exec(line);
    if (row && current) current.set(row[1]!, row[2] === 'yes');
  }
  return tools;
}

describe('the manual', () => {
  it('docs/tools.md lists every tool and each input field as package.json declares it, required or not', () => {
    const documented = documentedInputs();
    const tools = packageJson().contributes.languageModelTools;
    assert.deepEqual([...documented.keys()].sort(), tools.map((t) => t.name).sort());
    for (const tool of tools) {
      const required = tool.inputSchema.required ?? [];
      const declared = Object.keys(tool.inputSchema.properties).map((field) => [field, required.includes(field)]);
      assert.deepEqual([...documented.get(tool.name)!.entries()].sort(), declared.sort(), tool.name);
    }
  });

  it('the README, the extension page, is at most 250 lines and keeps the commands of a fresh machine', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 250, `${readme.split('\n').length} lines`);
    for (const command of ['bash scripts/install-host.sh', 'npm ci', 'npm run demo', 'npm test'])
      assert.ok(readme.includes(command), command);
    assert.ok(readme.includes('(CONTRIBUTING.md)'), 'links CONTRIBUTING.md');
  });
});
