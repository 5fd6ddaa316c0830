/**
 * What must never ship in the package: test helpers live in `testing/`
 * folders, tests end in `.test`, `.corpus-test`, `.package-test` or
 * `.fixture`, and the benches and browser suites stay in the checkout.
 */
const TEST_ONLY: readonly RegExp[] = [
  /(^|\/)testing\//,
  /(^|\/)(bench|e2e|dist-bench)\//,
  /\.(test|corpus-test|package-test|e2e\.test|fixture)\.[cm]?[jt]sx?(\.map)?$/,
  /\.(test|corpus-test|package-test|fixture)\.d\.[cm]?ts(\.map)?$/,
  /(^|\/)test-support\./,
  /-test-server\./,
];

/** The paths (as `npm pack --json` lists them) that are test-only. */
export function testOnlyFiles(paths: readonly string[]): string[] {
  return paths.filter((path) => TEST_ONLY.some((pattern) => pattern.test(path)));
}
