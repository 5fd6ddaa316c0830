/** First prompts offered for the built-in assistant, whose definition names none. */
export const ASSISTANT_EXAMPLES: readonly string[] = [
  'Book a design review with ana@example.com next Tuesday at 10:00',
  'Email bob@example.com to ask whether lunch on Friday at noon works',
  'Put a 30-minute sync with the team on my calendar tomorrow at 15:00',
];
