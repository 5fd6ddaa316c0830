// Lets a plain Node worker load this repo's TypeScript sources directly:
// Node strips the types itself; this maps the `./x.js` specifiers written in
// the sources to the `./x.ts` files that exist.
export async function resolve(specifier, context, nextResolve) {
  if (
    specifier.startsWith('.') &&
    specifier.endsWith('.js') &&
    context.parentURL?.endsWith('.ts')
  ) {
    try {
      return await nextResolve(specifier.slice(0, -3) + '.ts', context);
    } catch {
      // Not a TypeScript sibling: resolve as written.
    }
  }
  return nextResolve(specifier, context);
}
