/**
 * Documents: upserts of 2 KB documents through the API, then full-text search over 10,000 of them
 * (about 20 MB of text) through the search route and through a bare `pg` query doing the same search.
 */
const autocannon = require('autocannon');
const { Pool } = require('pg');
const { databaseConfig } = require('../database');
const { bootstrap, fetchJson } = require('../harness');

const DOCUMENTS = 10_000;
const DOCUMENT_BYTES = 2048;
const CONNECTIONS = 8;
const SEARCH_SECONDS = 8;
const TARGET_UPSERTS = 200;
const TARGET_SEARCH_P95_MS = 50;
/** Words drawn with Zipf-like frequencies, as in prose: a few are everywhere, most are rare. */
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`);

/** A deterministic pseudo-random sequence, so every run searches the same corpus. */
function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function word(next) {
  return VOCABULARY[Math.floor(VOCABULARY.length ** next()) - 1];
}

function documentText(i) {
  const next = random(i + 1);
  const words = [];
  let bytes = 0;
  while (bytes < DOCUMENT_BYTES) {
    const w = word(next);
    words.push(w);
    bytes += w.length + 1;
  }
  return words.join(' ').slice(0, DOCUMENT_BYTES);
}

/** Two words of middling frequency: what a user would type, matching tens to hundreds of chunks. */
function queries(count) {
  const next = random(424242);
  return Array.from({ length: count }, () => {
    const pick = () => VOCABULARY[50 + Math.floor(next() * 1500)];
    return `${pick()} ${pick()}`;
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `CONNECTIONS` workers each running `call(query)` back to back for `seconds`; latencies in ms. */
async function closedLoop(call, seconds) {
  const terms = queries(5_000);
  const latencies = [];
  let errors = 0;
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const query = terms[n++ % terms.length];
      const start = process.hrtime.bigint();
      try {
        await call(query);
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  latencies.sort((a, b) => a - b);
  return {
    rps: Math.round(latencies.length / seconds),
    p50: Number(percentile(latencies, 50).toFixed(1)),
    p95: Number(percentile(latencies, 95).toFixed(1)),
    p99: Number(percentile(latencies, 99).toFixed(1)),
    errors,
  };
}

/** The query of src/modules/data-sources/infrastructure/postgres-document-index.adapter.ts. */
const SEARCH_SQL = `SELECT best.data_source_id AS "dataSourceId", d.document_id AS "documentId", d.title,
    d.source_url AS "sourceUrl", d.tags, best.text, best."offset", best.score
  FROM (
    SELECT c.id, c.data_source_id, c.document_id, c.text, c."offset", ts_rank_cd(c.tsv, q.query) AS score
    FROM data_source_document_chunks c
    CROSS JOIN websearch_to_tsquery($3::regconfig, $4) AS q(query)
    WHERE c.workspace_id = $1 AND c.data_source_id = $2 AND c.tsv @@ q.query
      AND ($5::text[] IS NULL OR EXISTS (
        SELECT 1 FROM data_source_documents p WHERE p.id = c.document_id AND p.parents && $5::text[]))
    ORDER BY score DESC, c.id ASC
    LIMIT $6
  ) best
  JOIN data_source_documents d ON d.id = best.document_id
  ORDER BY best.score DESC, best.id ASC`;

module.exports = {
  name: 'documents',
  // Seeding alone makes 10,000 requests with one key: past the default per-key limit.
  env: { RATE_LIMIT_REQUESTS: '0' },
  async run({ service }) {
    const { workspace, apiKey } = await bootstrap(service, 'Documents bench');
    const wId = workspace.sId;
    const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
    const { spaces } = await fetchJson(`${service.baseUrl}/api/w/${wId}/spaces`, { headers });
    const space = spaces.find((s) => s.kind === 'global').sId;
    const created = await fetchJson(`${service.baseUrl}/api/w/${wId}/spaces/${space}/data_sources`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Bench documents' }),
    });
    const dsId = created.dataSource.sId;
    const dsvId = created.dataSourceView.sId;
    const documentsPath = `/api/v1/w/${wId}/spaces/${space}/data_sources/${dsId}/documents`;

    // Upserts: each request a new document of the corpus, until the corpus is whole.
    let next = 0;
    const upsertRun = (limit) =>
      autocannon({
        url: service.baseUrl,
        connections: CONNECTIONS,
        ...limit,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => {
              const i = next++;
              return {
                ...request,
                path: `${documentsPath}/doc-${i}`,
                body: JSON.stringify({
                  title: `Document ${i}`,
                  text: documentText(i),
                  source_url: `https://docs.example.com/${i}`,
                }),
              };
            },
          },
        ],
      });
    await upsertRun({ duration: 2 });
    const upserts = await upsertRun({ duration: 8 });
    const upsertErrors = upserts.errors + upserts.timeouts + (upserts.non2xx ?? 0);
    if (next < DOCUMENTS) await upsertRun({ amount: DOCUMENTS - next });

    const stored = await fetchJson(`${service.baseUrl}${documentsPath}?limit=1`, { headers });
    if (stored.documents.length !== 1) throw new Error('The corpus was not stored');
    const pool = new Pool({ ...databaseConfig(service.dataDir), max: CONNECTIONS });
    try {
      const [{ id: dataSourceId, workspace_id: workspaceId, count }] = (
        await pool.query(
          `SELECT ds.id, ds.workspace_id, (SELECT count(*) FROM data_source_documents d WHERE d.data_source_id = ds.id)
           FROM data_sources ds WHERE ds.s_id = $1`,
          [dsId],
        )
      ).rows;
      const [{ mb }] = (
        await pool.query(
          'SELECT round(sum(text_bytes) / 1e6, 1) AS mb FROM data_source_documents WHERE data_source_id = $1',
          [dataSourceId],
        )
      ).rows;
      await pool.query('VACUUM ANALYZE data_source_document_chunks');
      await pool.query('VACUUM ANALYZE data_source_documents');

      const searchUrl = `${service.baseUrl}/api/v1/w/${wId}/spaces/${space}/data_source_views/${dsvId}/search`;
      const viaService = async (query) => {
        const res = await fetch(`${searchUrl}?query=${encodeURIComponent(query)}&top_k=10`, { headers });
        if (!res.ok) throw new Error(String(res.status));
        await res.arrayBuffer();
      };
      const viaPg = (query) => pool.query(SEARCH_SQL, [workspaceId, dataSourceId, 'simple', query, null, 10]);
      await closedLoop(viaPg, 2);
      const bare = await closedLoop(viaPg, SEARCH_SECONDS);
      await closedLoop(viaService, 2);
      const measured = await closedLoop(viaService, SEARCH_SECONDS);

      const upsertRps = Math.round(upserts.requests.average);
      const upsertFailed = upsertRps < TARGET_UPSERTS || upsertErrors > 0;
      const searchFailed = measured.p95 >= TARGET_SEARCH_P95_MS || measured.errors > 0;
      return [
        {
          scenario: 'document upsert (2 KB, new documents)',
          rps: upsertRps,
          p50: upserts.latency.p50,
          p99: upserts.latency.p99,
          errors: upsertErrors,
          failed: upsertFailed,
          note: `${CONNECTIONS} connections; target ≥ ${TARGET_UPSERTS} a second${upsertFailed ? ' — MISSED' : ''}`,
        },
        {
          scenario: `document search, bare pg (${count} documents, ${mb} MB)`,
          ...bare,
          note: `${CONNECTIONS} connections, the adapter's query; p95 ${bare.p95} ms`,
        },
        {
          scenario: `document search, service (${count} documents, ${mb} MB)`,
          ...measured,
          failed: searchFailed,
          note:
            `${CONNECTIONS} connections, top_k 10, two-word queries; p95 ${measured.p95} ms, target < ` +
            `${TARGET_SEARCH_P95_MS} ms${searchFailed ? ' — MISSED' : ''}`,
        },
      ];
    } finally {
      await pool.end();
    }
  },
};
