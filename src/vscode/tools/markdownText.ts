/**
 * Markdown text for what a tool shows the person (invocation messages, confirmations): text a
 * model or a program supplied, made inert and shown as the same characters. Plain strings, no
 * `vscode` import; callers wrap them in a `vscode.MarkdownString`.
 */
import { visibleText } from '../../terminal/input/input';

/**
 * A fenced markdown code block of `code` in full that survives backticks inside it (CommonMark
 * § 4.5: a fence longer than any backtick run); characters a terminal would act on and invisible
 * characters are shown as `⟨U+0007⟩` (`visibleText`), line breaks kept. `shown`: that text when
 * the caller made it already (it must be `visibleText(code, true)`).
 */
export function codeFence(code: string, language = 'sh', shown = visibleText(code, true)): string {
  const longest = Math.max(2, longestBacktickRun(shown));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${shown}\n${fence}`;
}

/**
 * Text a model or a program supplied (a session name, a session id, a signal name), made inert
 * for markdown: controls, line breaks, bidirectional controls and invisible characters shown as
 * `⟨U+202E⟩` (`visibleText`), every ASCII
 * punctuation character backslash-escaped (CommonMark § 2.4), so it renders as the same text and
 * never as a link, an image, emphasis or HTML.
 */
export function escapeMarkdown(text: string): string {
  return visibleText(String(text)).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * A markdown code span of one-line text (a path, a command line), safe for any backticks in it
 * (CommonMark § 6.1); controls, line breaks and invisible characters shown as `⟨U+200B⟩`.
 */
export function inlineCode(text: string): string {
  const shown = visibleText(String(text));
  const longest = longestBacktickRun(shown);
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown === '' ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** The longest run of backticks in `text` (0 for none), in one pass however many runs it has. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}
