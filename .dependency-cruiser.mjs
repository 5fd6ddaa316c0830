// The layers of src/, bottom to top. A module may import its own layer (when no
// cycle arises; check:cycles guards that) and the layers below it, never one above.
// Type-only and lazy `import()` edges count: a deferred upward import is still upward.
// A folder inside a lower one's (a2a/serve, mcp/server: the run service spoken as A2A
// and MCP, server adapters) belongs to the layer that names it.
/** @type {string[][]} */
const layers = [
  ['errors', 'util'],
  ['contracts', 'events', 'model', 'cost', 'definition'],
  ['policy', 'trust', 'store', 'telemetry', 'tools'],
  ['runtime'],
  ['agents', 'mcp', 'a2a', 'compat', 'trajectory', 'eval'],
  ['server', 'a2a/serve', 'mcp/server'],
  ['cli', 'index.ts'],
];

// Tests and test support (every test-only module lives in a testing/ folder, which the
// build leaves out) may reach anything; the rules cover shipped code only.
const testCode = ['\\.(test|test-d|corpus-test|package-test)\\.ts$', '(^|/)testing/'];

const pathOf = (names) =>
  `^src/(${names.map((name) => (name.endsWith('.ts') ? name.replace('.', '\\.') + '$' : `${name}/`)).join('|')})`;

const layerRules = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${index}-imports-up`,
  comment: `L${index} (${layer.join(', ')}) may not import a higher layer`,
  severity: 'error',
  from: { path: pathOf(layer), pathNot: [...testCode, pathOf(layers.slice(index + 1).flat())] },
  to: { path: pathOf(layers.slice(index + 1).flat()) },
}));

export default {
  forbidden: [
    ...layerRules,
    {
      name: 'shipped-code-imports-testing',
      comment: 'test fixtures are for tests; shipped code may not import them',
      severity: 'error',
      from: { path: '^src/', pathNot: testCode },
      to: { path: testCode.slice(1) },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    // Tests are exempt from every rule: not reading them halves the work.
    exclude: { path: ['^node_modules', '^dist/', testCode[0]] },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    cache: false,
  },
};
