/**
 * A note's YAML front matter (plain Node, no `vscode` import): where it is (`---` on the first
 * line, closed by `---` or `...`), its `title:`, and its `aliases:` (Obsidian's and Foam's
 * property: a list or one string, or `alias:`).
 *
 * Lines are 0-based.
 */

import { load as loadYaml, JSON_SCHEMA } from 'js-yaml';

/** A note's front matter: its lines `[startLine, endLine]` inclusive, and its `title:` when one is written. */
export interface FrontMatter {
  readonly range: { readonly startLine: number; readonly endLine: number };
  readonly title: string | undefined;
}

/**
 * The front matter of a note's `lines`: `---` on the first line (a BOM before it ignored), closed
 * by the first `---` or `...` after it; its `title:` unquoted. `undefined` when the note does not
 * start with one or it is never closed.
 */
export function readFrontMatter(lines: readonly string[]): FrontMatter | undefined {
  const n = lines.length;
  if (!(n > 1 && /^---\s*$/.test(lines[0]!.replace(/^\uFEFF/, '')))) return undefined;
  let range: { startLine: number; endLine: number } | undefined;
  for (let i = 1; i < n; i++) {
    if (/^(---|\.\.\.)\s*$/.test(lines[i]!)) {
      range = { startLine: 0, endLine: i };
      break;
    }
  }
  if (!range) return undefined;
  let title: string | undefined;
  for (let i = 1; i < range.endLine; i++) {
    // trim(), not a lazy match before `\s*$`: that is quadratic in a run of spaces.
    const value = lines[i]!.startsWith('title:') ? lines[i]!.slice('title:'.length).trim() : '';
    if (value) {
      title = value.replace(/^(['"])(.*)\1$/, '$2').trim() || undefined;
      break;
    }
  }
  return { range, title };
}

/** `aliases` (or `alias`) of the front matter in `lines[1 .. endLine-1]`, parsed as YAML (JSON schema: no custom types). */
export function frontMatterAliases(lines: readonly string[], endLine: number): Array<{ text: string; line: number }> {
  let data: unknown;
  try {
    data = loadYaml(lines.slice(1, endLine).join('\n'), { schema: JSON_SCHEMA });
  } catch {
    return [];
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const record = data as Record<string, unknown>;
  const key = 'aliases' in record ? 'aliases' : 'alias' in record ? 'alias' : undefined;
  if (!key) return [];
  const raw = record[key];
  const values = (Array.isArray(raw) ? raw : [raw])
    .filter((v): v is string | number => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number')
    .map((v) => String(v).trim());
  let keyLine = 1;
  for (let i = 1; i < endLine; i++) {
    if (new RegExp(`^${key}\\s*:`).test(lines[i]!)) {
      keyLine = i;
      break;
    }
  }
  return values.map((text) => {
    let line = keyLine;
    for (let i = keyLine; i < endLine; i++) {
      if (lines[i]!.includes(text)) {
        line = i;
        break;
      }
    }
    return { text, line };
  });
}
