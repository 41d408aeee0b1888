// Runs n8n's community package scanner (@n8n/scan-community-package's exported analysis, the one n8n
// runs before it verifies a package) on a folder: `node scan.mjs <folder> [source]`. `source` lints
// what the scanner lints in a package's source repository (package.json, nodes/, credentials/).
// Prints the analysis as JSON. ESM only, hence a child process of the jest test.
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const [folder, mode] = process.argv.slice(2);
const result = await analyzePackage(folder, mode === 'source' ? SOURCE_FILE_PATTERNS : undefined);
process.stdout.write(`${JSON.stringify({ passed: result.passed, message: result.message ?? null, details: result.details ?? null })}\n`);
