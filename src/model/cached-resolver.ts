/**
 * Wraps a model resolver so each model string resolves once per run tree or
 * session: subagents share one client (and its connections), and a scripted
 * model keeps its place across them.
 */
export function cachedResolver<R>(resolve: (model: string) => R): (model: string) => R {
  const clients = new Map<string, R>();
  return (model) => {
    const known = clients.get(model);
    if (known) return known;
    const client = resolve(model);
    clients.set(model, client);
    return client;
  };
}
