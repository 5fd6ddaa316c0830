/**
 * Tools the server gives every agent besides the command line's: they act
 * for a signed-in person, who approves each call in the web page or the API.
 * `cadre validate` accepts them, as `cadre serve` runs agents that use them.
 */
export const SERVER_TOOL_NAMES: readonly string[] = Object.freeze([
  'gmail_send',
  'calendar_event_create',
]);
