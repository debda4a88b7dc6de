/**
 * Every copy of what the tool declarations (src/tools/toolDeclarations.ts) say agrees with them:
 * package.json `contributes.languageModelTools` (names, descriptions, input schemas; rewritten by
 * `npm run gen:tools`), MCP `tools/list`, the lists of tools that run without asking in "DSH:
 * Connect an Agent (MCP)", and the tool table of the documentation (README.md's "## Tools" table
 * once it has an "Asks first" column, else docs/tools.md's).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectionGuide } from '../../../src/mcp/connectionGuide';
import { mcpToolList } from '../../../src/mcp/toolServer';
import { languageModelToolContribution } from '../../../src/tools/contribution';
import { TOOL_DECLARATIONS, toolsThatAlwaysAsk, toolsThatAskWhen, toolsThatNeverAsk } from '../../../src/tools/toolDeclarations';
import { asksFirstText, toolsTable } from '../../../src/tools/toolsTable';
import { packageJson } from '../../helpers/packageJson';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * The rows of the first markdown table under the heading `## <heading>` in `text`: each row's
 * cells by the header's column names, or undefined when there is no such heading or table.
 */
function tableUnder(text: string, heading: string): Record<string, string>[] | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (at < 0) return undefined;
  const end = lines.findIndex((l, i) => i > at && /^## /.test(l));
  const section = lines.slice(at + 1, end < 0 ? undefined : end);
  const start = section.findIndex((l) => l.trim().startsWith('|'));
  if (start < 0) return undefined;
  const rows: string[][] = [];
  for (const line of section.slice(start)) {
    if (!line.trim().startsWith('|')) break;
    rows.push(
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  }
  const [header, , ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((name, i) => [name.toLowerCase(), cells[i] ?? ''])));
}

describe('tool declarations: every copy agrees', () => {
  it('package.json contributes exactly the declared tools, in order, with their names, descriptions and input schemas (npm run gen:tools rewrites it)', () => {
    const contributed = packageJson().contributes.languageModelTools as unknown[];
    assert.deepEqual(
      contributed,
      TOOL_DECLARATIONS.map(languageModelToolContribution),
      'package.json disagrees with src/tools/declarations: run npm run gen:tools',
    );
  });

  it('names are unique and each tool input schema is a closed object', () => {
    const names = TOOL_DECLARATIONS.map((d) => d.name);
    assert.equal(new Set(names).size, names.length);
    for (const tool of TOOL_DECLARATIONS.map(languageModelToolContribution)) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok(property.description, `${tool.name}.${name} is described`);
        if (property.type === 'string' && !property.enum) assert.ok(property.maxLength, `${tool.name}.${name} has a maxLength`);
      }
    }
  });

  it('MCP tools/list shows the declared tools with the model description and the same input schema', () => {
    const listed = mcpToolList(TOOL_DECLARATIONS);
    assert.deepEqual(
      listed.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      TOOL_DECLARATIONS.map(languageModelToolContribution).map((t) => ({
        name: t.name,
        description: t.modelDescription,
        inputSchema: t.inputSchema,
      })),
    );
  });

  it('"Connect an Agent (MCP)" lists every tool that runs without asking and every one that asks', () => {
    const guide = connectionGuide('/x/mcp-bridge.js');
    const withoutAsking = /- Reads and navigation \(([^)]*)\) run without\s+asking/.exec(guide);
    assert.ok(withoutAsking, guide);
    assert.deepEqual(withoutAsking[1]!.split(', '), [...toolsThatNeverAsk(), ...toolsThatAskWhen().map((t) => t.name)]);
    for (const { name, when } of toolsThatAskWhen()) assert.ok(guide.replace(/\s+/g, ' ').includes(`${name} when ${when}`), name);
    const asking = /- ([\w, ]+) \(opening a session, sending input, signals, closing\) ask you/.exec(guide);
    assert.ok(asking, guide);
    assert.deepEqual(asking[1]!.split(', '), toolsThatAlwaysAsk());
    assert.ok(toolsThatNeverAsk().includes('dsh_terminal_history') && toolsThatNeverAsk().includes('dsh_terminal_wait'));
    assert.equal(toolsThatNeverAsk().length + toolsThatAskWhen().length + toolsThatAlwaysAsk().length, TOOL_DECLARATIONS.length);
  });

  it("the documentation's tool table names every declared tool once and says whether it asks first", () => {
    const readme = tableUnder(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), 'Tools');
    // README.md is the place once its tool table has an "Asks first" column; docs/tools.md until then.
    const [file, rows] =
      readme?.[0] && 'asks first' in readme[0]
        ? ['README.md', readme]
        : ['docs/tools.md', tableUnder(fs.readFileSync(path.join(ROOT, 'docs/tools.md'), 'utf8'), 'Tools') ?? []];
    const byName = new Map(rows.map((r) => [/^`(\w+)`$/.exec(Object.values(r)[0] ?? '')?.[1], r]));
    assert.deepEqual([...byName.keys()].sort(), TOOL_DECLARATIONS.map((d) => d.name).sort(), `${file}: the tools in its table`);
    for (const d of TOOL_DECLARATIONS) assert.equal(byName.get(d.name)!['asks first'], asksFirstText(d.asksFirst), `${file}: ${d.name}`);
    if (file === 'docs/tools.md')
      assert.ok(fs.readFileSync(path.join(ROOT, 'docs/tools.md'), 'utf8').includes(toolsTable()), 'docs/tools.md: run npm run gen:tools');
  });
});
