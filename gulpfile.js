// Copies node and credential icons next to the compiled files, where n8n looks for them.
const { src, dest } = require('gulp');

function buildIcons() {
  return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', allowEmpty: true, encoding: false }).pipe(dest('dist'));
}

exports.build = buildIcons;
exports['build:icons'] = buildIcons;
