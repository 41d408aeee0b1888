// Copies the vocabulary into the two programs that cannot import the service: the console (flat files served from
// dist/console) and the n8n node (packaged alone, with no dependencies). build:server runs it first;
// test/platform/vocabulary.test.ts checks the copies are current and that a reason without its words does not compile.
const fs = require('node:fs');
const path = require('node:path');

const FILES = ['review-reasons.ts', 'statuses.ts', 'event-types.ts', 'permissions.ts'];
const TARGETS = ['console/src/vocabulary.ts', 'nodes/StoreSuppliers/vocabulary.ts'];
/** After shipping's words (issue 54), a copy of their own so that no copy grows past one sitting. */
const AFTER_SHIPPING = {
  files: ['delivery.ts', 'claims.ts', 'returns.ts'],
  targets: ['console/src/after-shipping-words.ts', 'nodes/StoreSuppliers/after-shipping-words.ts'],
};

/** The copy's text: the vocabulary's files one after another, under a header that names where to change them. */
function render(root, files = FILES) {
  const dir = path.join(root, 'server/platform/vocabulary');
  const parts = files.map((name) => {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (/^\s*import\b/m.test(text)) throw new Error(`server/platform/vocabulary/${name} imports: the copies must stand alone.`);
    return text.trimEnd();
  });
  return `// Generated from server/platform/vocabulary/ by npm run generate:vocabulary (build:server runs it): change it there.\n\n${parts.join('\n\n')}\n`;
}

function write(root) {
  for (const { files, targets } of [{ files: FILES, targets: TARGETS }, AFTER_SHIPPING]) {
    const text = render(root, files);
    for (const target of targets) {
      const file = path.join(root, target);
      if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
    }
  }
}

module.exports = { render, write, TARGETS, AFTER_SHIPPING };
if (require.main === module) write(process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(__dirname, '../../..'));
