/**
 * n8n-workflow checks a node's parameter patterns (a resource locator's `regex` validation) in a vm limited to
 * 250 ms. On a loaded two-core CI machine the first run of one of the node's fixed, linear patterns has taken longer
 * ("Regular expression execution timed out"). The in-process engine keeps the vm's protection with a limit that
 * absorbs a scheduling stall; n8n itself is run for real, with its own engine, by test/e2e.
 */
import vm from 'node:vm';

const TIMEOUT_MS = 5000;

type Call = 'exec' | 'test' | 'replace' | 'matchAll' | 'split';
const scripts: Record<Call, vm.Script> = {
  exec: new vm.Script('result = new RegExp(pattern, flags).exec(input)'),
  test: new vm.Script('result = new RegExp(pattern, flags).test(input)'),
  replace: new vm.Script('result = input.replace(new RegExp(pattern, flags), replacement)'),
  matchAll: new vm.Script('result = Array.from(input.matchAll(new RegExp(pattern, flags)))'),
  split: new vm.Script('result = input.split(new RegExp(pattern, flags))'),
};
const context = vm.createContext({ pattern: '', flags: '', input: '', replacement: '', result: undefined as unknown });

function run<T>(call: Call, pattern: string, input: string, flags = '', replacement = ''): T {
  Object.assign(context, { pattern, input, flags, replacement, result: undefined });
  scripts[call].runInContext(context, { timeout: TIMEOUT_MS });
  return context.result as T;
}

const withGlobal = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);

// The module n8n-workflow's own index loads (not exported from it), so one engine serves both.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const safeRegex = require(require.resolve('n8n-workflow').replace(/index\.js$/, 'safe-regex.js')) as {
  setSafeRegexEngine(engine: Record<Call, (...args: never[]) => unknown>): void;
};
safeRegex.setSafeRegexEngine({
  exec: (pattern: string, input: string, flags?: string) => run('exec', pattern, input, flags),
  test: (pattern: string, input: string, flags?: string) => run('test', pattern, input, flags),
  replace: (pattern: string, input: string, flags: string | undefined, replacement: string) => run('replace', pattern, input, flags, replacement),
  matchAll: (pattern: string, input: string, flags?: string) => run('matchAll', pattern, input, withGlobal(flags)),
  split: (pattern: string, input: string, flags?: string) => run('split', pattern, input, flags),
});
