/** commander's argParser for a repeatable flag: every value, in order. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];
