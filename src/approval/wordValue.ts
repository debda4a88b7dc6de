/**
 * The value bash gives a word of a command line, as far as the line shows it (plain Node): quotes
 * and backslashes removed, or "decided when it runs" for a word holding an expansion, a command or
 * process substitution, a glob, a brace expansion or an ANSI-C / locale string. Rules from
 * bash(1), QUOTING and EXPANSION.
 */
import { SyntaxNode, childrenOf } from './syntaxTree';

/** A word's value: `known` false when part of it is decided when the command runs (`value` then holds that part as written). */
export interface WordValue {
  value: string;
  known: boolean;
}

/**
 * An unquoted word's characters that make bash expand it: glob characters (`*`, `?`, `[`), and a
 * brace expansion (`{a,b}`, `{1..3}`); the parser leaves these inside plain words.
 */
function expandsUnquoted(raw: string): boolean {
  const unescaped = raw.replace(/\\./gs, '');
  // The parser splits `a{b,c}` into words of their own (`{`, `b,c`, `}`): a lone brace counts.
  return /[*?[{}]/.test(unescaped);
}

/** An unquoted word's value: backslash-newline removed (a line continuation), then each `\x` is `x`. */
function unquotedWord(raw: string): string {
  return raw.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

/** A double-quoted string's literal content: only `\$`, `` \` ``, `\"`, `\\` and backslash-newline are escapes there. */
function doubleQuotedContent(raw: string): string {
  return raw.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

/**
 * The value of a word node (`word`, `string`, `raw_string`, `number`, `concatenation`, …). A
 * word made of several pieces (`"a"b'c'`) is their values joined. `{` and `}` pieces of a
 * brace expansion the parser splits into words count as decided when it runs.
 */
export function wordValue(node: SyntaxNode): WordValue {
  switch (node.type) {
    case 'word':
    case 'command_name': {
      if (node.type === 'command_name') {
        const inner = childrenOf(node);
        if (inner.length === 1 && inner[0]!.type !== 'word') return wordValue(inner[0]!);
      }
      const raw = node.text;
      return { value: unquotedWord(raw), known: !expandsUnquoted(raw) };
    }
    case 'number':
    case 'variable_name':
    case 'file_descriptor':
      return { value: node.text, known: true };
    case 'raw_string':
      return { value: node.text.slice(1, -1), known: true };
    case 'string': {
      let known = true;
      let value = '';
      for (const c of childrenOf(node)) {
        if (c.type === '"') continue;
        if (c.type === 'string_content') value += doubleQuotedContent(c.text);
        else {
          known = false;
          value += c.text;
        }
      }
      return { value, known };
    }
    case 'concatenation': {
      let known = true;
      let value = '';
      for (const c of childrenOf(node)) {
        const part = wordValue(c);
        known &&= part.known;
        value += part.value;
      }
      return { value, known };
    }
    default:
      // Expansions, substitutions and any node this walk does not read: decided when it runs.
      return { value: node.text, known: false };
  }
}
