/** How the benchmarks reach the embedded PostgreSQL a service started under its DATA_DIR. */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** pg connection settings: the generated credentials, and the port on line 4 of postmaster.pid. */
function databaseConfig(dataDir) {
  const { user, password, database } = JSON.parse(
    readFileSync(join(dataDir, 'postgres-credentials.json'), 'utf8'),
  );
  const port = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  return { host: '127.0.0.1', port, user, password, database };
}

module.exports = { databaseConfig };
