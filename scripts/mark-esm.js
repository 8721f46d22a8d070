#!/usr/bin/env node
// Marks a build folder as ES modules: the spec build (dist-test) is ESM so that Jest can load NestJS 12.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

writeFileSync(join(process.argv[2], 'package.json'), '{ "type": "module" }\n');
