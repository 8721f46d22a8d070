/** How the benchmarks reach the embedded PostgreSQL a service started under its DATA_DIR. */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * pg connection settings: the generated credentials, the port on line 4 of postmaster.pid and the
 * socket directory on line 5 (the service's own way in, so a reference server pays what it pays).
 */
function databaseConfig(dataDir) {
  const { user, password, database } = JSON.parse(
    readFileSync(join(dataDir, 'postgres-credentials.json'), 'utf8'),
  );
  const lines = readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const host = lines[4]?.trim() || '127.0.0.1';
  return { host, port: Number(lines[3]), user, password, database };
}

module.exports = { databaseConfig };
