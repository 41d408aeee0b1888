// Copies the console's one vendored library, uPlot (the profit page's chart; docs/decisions.md, "The profit page's
// chart"), from node_modules into dist/console under names the console serves (lower-case .js and .css). Nothing is
// downloaded: `npm ci` installed it from the lock file.
const fs = require('node:fs');
const path = require('node:path');

const dist = path.join(path.dirname(require.resolve('uplot')));
const out = path.join(__dirname, '../dist/console');
fs.mkdirSync(out, { recursive: true });
fs.copyFileSync(path.join(dist, 'uPlot.iife.min.js'), path.join(out, 'uplot.js'));
fs.copyFileSync(path.join(dist, 'uPlot.min.css'), path.join(out, 'uplot.css'));
