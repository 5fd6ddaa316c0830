import { expect, it } from 'vitest';
import { testOnlyFiles } from './test-only-files.js';

it('names every kind of test-only file a tarball could carry', () => {
  const testOnly = [
    'dist/src/testing/fake-openai-server.js',
    'dist/src/store/testing/embedded-postgres.d.ts',
    'dist/src/server/http/testing/test-support.js.map',
    'dist/src/server/http/real-test-server.js',
    'dist/src/tools/mail/test-support.js',
    'dist/src/definition/spec-example.fixture.js',
    'dist/src/cli/run-command.test.js',
    'dist/src/cli/package-install.package-test.d.ts',
    'dist/bench/run-bench.js',
    'dist-bench/src/index.js',
    'e2e/chat.e2e.test.ts',
  ];
  expect(testOnlyFiles(testOnly)).toEqual(testOnly);
});

it('passes what the package ships', () => {
  const shipped = [
    'dist/src/index.js',
    'dist/src/store/conformance/store-conformance.js',
    'dist/src/model/scripted-model.js',
    'dist/src/cli/commands/test.js',
    'dist/web/index.html',
    'spec/trajectory.schema.json',
    'examples/agents/judge.yaml',
    'package.json',
  ];
  expect(testOnlyFiles(shipped)).toEqual([]);
});
