#!/usr/bin/env node
// Writes the configuration tables of docs/configuration.md from the schemas, as built in dist/
// (`npm run docs:config` builds first); the page's other text is kept as written.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const prettier = require('prettier');

const root = join(__dirname, '..');
const page = join(root, 'docs', 'configuration.md');
const { CONFIGURATIONS } = require(join(root, 'dist', 'src', 'app.config.js'));
const { configurationTables, withTables } = require(
  join(root, 'dist', 'src', 'platform', 'config', 'configuration-docs.js'),
);

async function main() {
  const text = withTables(readFileSync(page, 'utf8'), configurationTables(CONFIGURATIONS));
  const options = { ...(await prettier.resolveConfig(page)), filepath: page };
  writeFileSync(page, await prettier.format(text, options));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
