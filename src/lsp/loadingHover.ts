/**
 * Telling a hover answered while the language server is still loading from a real one (plain Node).
 */

/**
 * True for a hover answered while the language server is still loading the project: TypeScript's
 * syntax server prefixes such hovers with `(loading...)` (the semantic answer comes later).
 */
export function isLoadingHover(text: string | null): boolean {
  return text !== null && /^\(?\s*loading\s*(\.\.\.|…)\s*\)?(\s|$)/i.test(text.trim());
}
