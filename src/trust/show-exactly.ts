/**
 * Text shown to a person who decides on it: control characters (and the
 * Unicode ones that reorder or hide text) are written as escapes, so a file
 * name or a command cannot redraw the terminal or pass for another.
 */
export function showExactly(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g,
    (char) => {
      const code = char.charCodeAt(0);
      return code <= 0xff
        ? `\\x${code.toString(16).padStart(2, '0')}`
        : `\\u${code.toString(16).padStart(4, '0')}`;
    },
  );
}
