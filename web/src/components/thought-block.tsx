/** The model's thoughts, closed by default: useful when debugging, noise otherwise. */
export function ThoughtBlock({ text }: { text: string }) {
  return (
    <details className="thoughts">
      <summary>Thoughts</summary>
      <p className="thought-text">{text}</p>
    </details>
  );
}
