/** A route's handler takes its types from the route's own schemas: compiled here, every expected error must occur. */
import path from 'node:path';
import ts from 'typescript';

test('params, query and body are typed from the schemas; a wrong use does not compile', () => {
  const root = path.join(__dirname, '../..');
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const file = path.join(root, 'test/types/typed-route.check.ts');
  const program = ts.createProgram([file], { ...options, noEmit: true, incremental: false, rootDir: root });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.relative(root, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  // An unused @ts-expect-error is itself an error, so this also fails when a wrong use starts to compile.
  expect(problems).toEqual([]);
}, 120000);
