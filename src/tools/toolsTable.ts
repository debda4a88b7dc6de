/**
 * The tool table of the documentation, made from the declarations: each tool's name, whether it
 * asks first, and its inputs (`?` optional). Plain Node.
 */
import { inputJsonSchema } from './contribution';
import type { AsksFirst } from './declaration';
import { TOOL_DECLARATIONS } from './toolDeclarations';

/** The lines around the generated table in docs/tools.md. */
export const TOOLS_TABLE_BEGIN = '<!-- tools:begin (made by npm run gen:tools from src/tools/declarations) -->';
export const TOOLS_TABLE_END = '<!-- tools:end -->';

/** How a table's "Asks first" column says `asks`: yes, no, or "when …". */
export function asksFirstText(asks: AsksFirst): string {
  return asks === 'always' ? 'yes' : asks === 'never' ? 'no' : `when ${asks.when}`;
}

/** The markdown table: `| Tool | Asks first | Input |`, one row per declared tool, in order. */
export function toolsTable(): string {
  const rows = TOOL_DECLARATIONS.map((d) => {
    const schema = inputJsonSchema(d);
    const required = new Set(schema.required ?? []);
    const inputs = Object.keys(schema.properties ?? {}).map((n) => (required.has(n) ? n : `${n}?`));
    return `| \`${d.name}\` | ${asksFirstText(d.asksFirst)} | \`{${inputs.join(', ')}}\` |`;
  });
  return ['| Tool | Asks first | Input |', '|---|---|---|', ...rows].join('\n');
}
