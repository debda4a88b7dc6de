/**
 * Writes what is made from the tool declarations (src/tools/toolDeclarations.ts) into the files
 * that hold a copy: package.json `contributes.languageModelTools` and the tool table of
 * docs/tools.md (between its `<!-- tools:begin -->` and `<!-- tools:end -->` lines). Run it after
 * changing a declaration: `npm run gen:tools`. test/unit/tools/declarations.test.ts fails while a
 * copy disagrees.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolContribution } from '../src/tools/contribution';
import { TOOL_DECLARATIONS } from '../src/tools/toolDeclarations';
import { TOOLS_TABLE_BEGIN, TOOLS_TABLE_END, toolsTable } from '../src/tools/toolsTable';

const root = path.resolve(__dirname, '..');

const pkgPath = path.join(root, 'package.json');
const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8')) as { contributes: { languageModelTools: unknown[] } };
pkg.contributes.languageModelTools = TOOL_DECLARATIONS.map(languageModelToolContribution);
fs.writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);

const docPath = path.join(root, 'docs', 'tools.md');
const doc = fs.readFileSync(docPath, 'utf8');
const begin = doc.indexOf(TOOLS_TABLE_BEGIN);
const end = doc.indexOf(TOOLS_TABLE_END);
if (begin < 0 || end < begin) throw new Error(`${docPath} has no ${TOOLS_TABLE_BEGIN} … ${TOOLS_TABLE_END} lines`);
fs.writeFileSync(docPath, `${doc.slice(0, begin + TOOLS_TABLE_BEGIN.length)}\n${toolsTable()}\n${doc.slice(end)}`);
process.stdout.write(`wrote ${TOOL_DECLARATIONS.length} tools to package.json and docs/tools.md\n`);
