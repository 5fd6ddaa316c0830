/** Lower-case, no trailing dot, no IPv6 brackets: the form hosts are compared in. */
export function normalizeHost(host: string): string {
  let value = host.trim().toLowerCase();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  return value.endsWith('.') ? value.slice(0, -1) : value;
}
