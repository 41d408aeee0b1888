/**
 * The release path (.github/workflows/release.yml): checked by action-validator (GitHub's workflow schema),
 * then read as data for what a release needs: a version tag starts it, it builds and tests as CI does, it
 * publishes the n8n package and the JavaScript client with npm provenance (id-token: write) and the .NET
 * client to NuGet; its version check runs here as written; and every manifest names the one repository.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

const ROOT = path.join(__dirname, '../..');
const FILE = path.join(ROOT, '.github/workflows/release.yml');
const REPOSITORY = 'https://github.com/store-suppliers/store-suppliers';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const text = fs.readFileSync(FILE, 'utf8');
const workflow = parse(text) as Workflow;
const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');
const stepRunning = (job: Job, pattern: RegExp) => job.steps.find((s) => pattern.test(s.run ?? ''));

test('action-validator accepts the workflow, and refuses a broken copy of it', () => {
  const bin = path.join(ROOT, 'node_modules/@action-validator/cli/cli.mjs');
  const ok = spawnSync(process.execPath, [bin, FILE], { encoding: 'utf8' });
  expect({ status: ok.status, out: ok.stdout + ok.stderr }).toEqual({ status: 0, out: '' });
  const broken = path.join(ROOT, 'dist/release-broken.yml');
  fs.mkdirSync(path.dirname(broken), { recursive: true });
  fs.writeFileSync(broken, text.replace('runs-on: ubuntu-latest', 'runs-on-typo: ubuntu-latest'));
  const bad = spawnSync(process.execPath, [bin, broken], { encoding: 'utf8' });
  expect(bad.status).not.toBe(0);
  expect(bad.stdout + bad.stderr).toContain("Additional property 'runs-on-typo' is not allowed");
});

test('a version tag starts it; it builds and tests as CI does before anything is published', () => {
  expect(workflow.on.push.tags).toEqual(['v*']);
  expect(Object.keys(workflow.on)).toEqual(['push']);
  expect(workflow.permissions).toEqual({ contents: 'read' });
  const { test: testJob, publish } = workflow.jobs;
  expect(runs(testJob)).toContain('bash .ci/run');
  expect(runs(testJob)).toContain('npm run lint');
  expect(testJob.steps.some((s) => s.uses?.startsWith('actions/setup-dotnet@'))).toBe(true);
  expect(publish.needs).toBe('test');
  // .ci/run is what the workflow runs: npm ci, the whole suite, the n8n end-to-end runs.
  const ci = fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
  expect(ci).toMatch(/npm ci/);
  expect(ci).toMatch(/npm test/);
  expect(ci).toMatch(/npm run test:n8n/);
});

test('it publishes the n8n package and the JavaScript client with provenance, and the .NET client to NuGet', () => {
  const { publish } = workflow.jobs;
  expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
  const n8n = stepRunning(publish, /npm publish \.\/package\b/)!;
  expect(n8n.run).toContain('--provenance');
  expect(n8n.env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
  // package/ is what the build assembles, and the build runs before it.
  expect(runs(publish).indexOf('npm run build')).toBeGreaterThan(-1);
  expect(runs(publish).indexOf('npm run build')).toBeLessThan(runs(publish).indexOf('npm publish ./package'));
  expect(fs.readFileSync(path.join(ROOT, 'gulpfile.js'), 'utf8')).toContain("path.join(ROOT, 'package')");
  const client = stepRunning(publish, /npm publish \.\/client\b/)!;
  expect(client.run).toContain('--provenance');
  expect(client.env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
  const setupNode = publish.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))!;
  expect(setupNode.with).toMatchObject({ 'registry-url': 'https://registry.npmjs.org' });
  expect(runs(publish)).toMatch(/dotnet pack dotnet\/src\/StoreSuppliers\.Client -c Release -o dist\/nuget/);
  expect(runs(publish)).toMatch(
    /dotnet nuget push "dist\/nuget\/\*\.nupkg" --api-key "\$\{\{ secrets\.NUGET_API_KEY \}\}" --source https:\/\/api\.nuget\.org\/v3\/index\.json/,
  );
  expect(fs.existsSync(path.join(ROOT, 'dotnet/src/StoreSuppliers.Client/StoreSuppliers.Client.csproj'))).toBe(true);
});

test('its version check, run here as written: the tag must be the version of the project and of the n8n package', () => {
  const step = workflow.jobs.test.steps.find((s) => s.env?.TAG === '${{ github.ref_name }}')!;
  expect(step.run).toBeDefined();
  const check = (tag: string) => spawnSync('bash', ['-c', step.run!], { cwd: ROOT, env: { ...process.env, TAG: tag }, encoding: 'utf8' });
  const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  expect(check(`v${version}`).status).toBe(0);
  const wrong = check('v0.0.1');
  expect(wrong.status).toBe(1);
  expect(wrong.stderr).toContain(`package.json has version ${version}, the tag is v0.0.1`);
  expect(wrong.stderr).toContain(`n8n-package/package.json has version ${version}, the tag is v0.0.1`);
});

test('every manifest names the one repository, its issues and the same author', () => {
  const manifests = ['package.json', 'client/package.json', 'n8n-package/package.json'].map((f) => ({
    f,
    m: JSON.parse(fs.readFileSync(path.join(ROOT, f), 'utf8')),
  }));
  for (const { f, m } of manifests) {
    expect({ f, url: m.repository?.url, type: m.repository?.type }).toEqual({ f, url: `git+${REPOSITORY}.git`, type: 'git' });
    expect({ f, homepage: m.homepage.startsWith(REPOSITORY) }).toEqual({ f, homepage: true });
    expect({ f, bugs: m.bugs?.url }).toEqual({ f, bugs: `${REPOSITORY}/issues` });
    expect({ f, author: m.author }).toEqual({ f, author: manifests[0].m.author });
  }
  // The published packages say which folder of the repository they come from.
  expect(manifests[1].m.repository.directory).toBe('client');
  expect(manifests[2].m.repository.directory).toBe('n8n-package');
  const csproj = fs.readFileSync(path.join(ROOT, 'dotnet/src/StoreSuppliers.Client/StoreSuppliers.Client.csproj'), 'utf8');
  const prop = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(csproj)?.[1];
  expect(prop('RepositoryUrl')).toBe(`${REPOSITORY}.git`);
  expect(prop('RepositoryType')).toBe('git');
  expect(prop('PackageProjectUrl')?.startsWith(REPOSITORY)).toBe(true);
  expect(prop('Authors')).toBe(manifests[0].m.author.name);
});

test('git keeps the workflow where GitHub reads it', () => {
  const tracked = execFileSync('git', ['ls-files', '--others', '--cached', '--exclude-standard', '.github/workflows'], { cwd: ROOT, encoding: 'utf8' });
  expect(tracked.split('\n').filter(Boolean)).toEqual(['.github/workflows/release.yml']);
});
