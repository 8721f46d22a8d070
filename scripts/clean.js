#!/usr/bin/env node
// Empties build output folders before a build, so no stale compiled file survives a rename.
const { rmSync } = require('node:fs');

for (const dir of process.argv.slice(2)) rmSync(dir, { recursive: true, force: true });
