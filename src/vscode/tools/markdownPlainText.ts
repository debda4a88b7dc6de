/**
 * The plain text a person reads in a markdown message, for places that show no markdown (a modal
 * dialog's detail): emphasis markers and backslash escapes go, code spans and code blocks keep their
 * exact characters, paragraphs are separated by a blank line and list items start with "- ". A code
 * block's lines each start with a gutter, `│ `: plain text has no box around code, and without it a
 * command could hold lines that read as the dialog's own (a forged "Receiver: …" line after a
 * harmless first line, the real command further down); a long run of blanks in it is counted
 * (`⟨300 blanks⟩`), since a dialog wraps lines and the run would start what follows on a line of its own.
 * Parsed with markdown-it (CommonMark), the parser the wiki-link index uses. No `vscode` import.
 */
import MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

const parser = new MarkdownIt('commonmark', { html: false });

/** What starts each line of a code block in plain text ({@link CODE_GUTTER} alone on a blank line). */
export const CODE_GUTTER = '│ ';

/**
 * Plain text of `markdown`. A fenced or indented code block yields its content exactly (the
 * characters between the fences, CommonMark § 4.4–4.5), on lines of its own, each line after
 * {@link CODE_GUTTER} (a blank line: the gutter without its space) and long runs of blanks counted
 * (`⟨300 blanks⟩`); inline code yields its
 * content (§ 6.1); escaped punctuation yields the character (§ 2.4); raw HTML is not interpreted
 * (`html: false`), so it stays as the text it is. Never throws for any string.
 */
export function markdownPlainText(markdown: string): string {
  const blocks: string[] = [];
  let item = '';
  for (const token of parser.parse(markdown, {})) {
    if (token.type === 'list_item_open') item = '- ';
    else if (token.type === 'inline') {
      blocks.push(item + inlineText(token.children ?? []));
      item = '';
    } else if (token.type === 'fence' || token.type === 'code_block') blocks.push(guttered(token.content.replace(/\n$/, '')));
    else if (token.type === 'hr') blocks.push('---');
  }
  return blocks.join('\n\n');
}

/** Blanks (spaces and tabs) in a row from which a code line shows their count instead. */
export const LONG_BLANK_RUN = 16;

/**
 * `code` with {@link CODE_GUTTER} before each of its lines, and every run of at least
 * {@link LONG_BLANK_RUN} spaces and tabs shown as `⟨N blanks⟩`: a dialog wraps long lines, and a
 * long run would push what follows it onto a visual line of its own, without the gutter. (`⟨` in
 * the code itself is shown as `⟨U+27E8⟩`, so the notation cannot be forged.)
 */
function guttered(code: string): string {
  const longRun = new RegExp(`[ \\t]{${LONG_BLANK_RUN},}`, 'g');
  return code
    .split('\n')
    .map((line) => (line === '' ? CODE_GUTTER.trimEnd() : CODE_GUTTER + line.replace(longRun, (run) => `⟨${run.length} blanks⟩`)))
    .join('\n');
}

function inlineText(children: Token[]): string {
  let out = '';
  for (const child of children) {
    if (child.type === 'softbreak' || child.type === 'hardbreak') out += '\n';
    else if (child.type === 'text' || child.type === 'code_inline' || child.type === 'html_inline') out += child.content;
    else if (child.type === 'image') out += child.content;
  }
  return out;
}
