/**
 * One vocabulary (server/platform/vocabulary/): the console and the n8n node read copies of it, and a review reason
 * added without its words for people does not compile. Checked on copies of the sources in a scratch folder, with the
 * two projects that read the words (the console, the node) compiled as they are built.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require(path.join(ROOT, 'server/platform/vocabulary/generate.cjs')) as {
  render(root: string, files?: string[]): string;
  write(root: string): void;
  TARGETS: string[];
  AFTER_SHIPPING: { files: string[]; targets: string[] };
};
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

jest.setTimeout(180_000);

test('the console and the node read the vocabulary as it is (npm run generate:vocabulary)', () => {
  const text = generator.render(ROOT);
  for (const target of generator.TARGETS)
    expect({ target, current: fs.readFileSync(path.join(ROOT, target), 'utf8') === text }).toEqual({ target, current: true });
  // After shipping's words (delivery attention, claims), copied beside them.
  const after = generator.render(ROOT, generator.AFTER_SHIPPING.files);
  for (const target of generator.AFTER_SHIPPING.targets)
    expect({ target, current: fs.readFileSync(path.join(ROOT, target), 'utf8') === after }).toEqual({ target, current: true });
});

/** `tsc --noEmit -p` of one project in the scratch folder: its errors, or '' when it compiles. */
function compile(dir: string, project: string): string {
  try {
    execFileSync(process.execPath, [TSC, '--noEmit', '-p', project], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}` || 'tsc failed without output';
  }
}

test('a review reason added without its words fails to compile in the service, the console and the node; with them it compiles', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vocabulary-'));
  try {
    for (const part of ['server/platform/vocabulary', 'console/src', 'nodes']) fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'console/tsconfig.json'), path.join(dir, 'console/tsconfig.json'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    // The node and the service's module, as the root tsconfig.json compiles them (without the rest of the service).
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    const options = { ...root.compilerOptions, incremental: false, tsBuildInfoFile: undefined, types: ['node'] };
    fs.writeFileSync(
      path.join(dir, 'tsconfig.node.json'),
      JSON.stringify({ compilerOptions: options, include: ['nodes/**/*.ts', 'server/platform/vocabulary/*.ts'] }),
    );

    const module = path.join(dir, 'server/platform/vocabulary/review-reasons.ts');
    const original = fs.readFileSync(module, 'utf8');
    const flags = "  customerCaptureFailed: { retryable: false, reroute: 'no' },\n";
    expect(original).toContain(flags);
    // One line: the new reason and its flags, nothing else.
    fs.writeFileSync(module, original.replace(flags, `${flags}  vocabularyProbe: { retryable: false, reroute: 'optIn' },\n`));
    generator.write(dir);
    const consoleErrors = compile(dir, 'console/tsconfig.json');
    const nodeErrors = compile(dir, 'tsconfig.node.json');
    expect(consoleErrors).toMatch(/vocabularyProbe/);
    expect(nodeErrors).toMatch(/review-reasons\.ts[\s\S]*vocabularyProbe/);

    // Its words, but none for the reroute rule it may be chosen for: still refused.
    const words = '  customerCaptureFailed: {\n';
    const noLabel = "  vocabularyProbe: { why: 'Probe', next: 'Probe next.', advice: 'Probe advice.' },\n";
    const added = fs.readFileSync(module, 'utf8');
    fs.writeFileSync(module, added.replace(words, `${noLabel}${words}`));
    generator.write(dir);
    expect(compile(dir, 'console/tsconfig.json')).toMatch(/rerouteLabel/);

    fs.writeFileSync(
      module,
      added.replace(words, `${noLabel.replace("advice: 'Probe advice.'", "advice: 'Probe advice.', rerouteLabel: 'Probe label'")}${words}`),
    );
    generator.write(dir);
    expect(compile(dir, 'console/tsconfig.json')).toBe('');
    expect(compile(dir, 'tsconfig.node.json')).toBe('');
    // The copies carry it: the console's reroute form and the node's options read the new reason.
    expect(fs.readFileSync(path.join(dir, 'console/src/vocabulary.ts'), 'utf8')).toContain('vocabularyProbe');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
