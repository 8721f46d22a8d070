/**
 * The bare reference of two reads, plain node:http and pg, no framework, each doing the service's
 * work and answering the same JSON:
 *
 * - `GET /api/w/{wId}/assistant/conversations/{cId}` (endpoint 11): one query for the
 *   conversation with the caller's participant row, its space, whether the caller may read it (its
 *   space and every requested space accessible) and its fork links.
 * - `GET /api/w/{wId}/assistant/conversations/{cId}/messages` (`limit`, `cursor`): one query for
 *   the conversation and whether the caller may read it, one for the page (the latest version of
 *   each rank, with its author, its reactions and their users), and, when the page mentions
 *   agents, one for those agents (latest version, the caller's favourite, and whether the caller
 *   may read them: hidden only to editors and admins, and every space their tools need
 *   accessible). It reproduces pages of user messages, what the messages-list scenario reads: a
 *   page holding an agent message is answered 501, so that a bench on other data fails its body
 *   check instead of measuring less work than the service does.
 *
 * Both start with the Bearer key: SHA-256 of the secret looked up in `api_keys.secret_hash` with
 * its workspace, user and membership; refused when unknown or revoked, for another workspace,
 * without a membership or without `read:conversation`. Like the service, a resolved key is kept 4 s
 * in process (the hash is still computed on every request). Every query is a named prepared
 * statement, planned once per pool connection.
 *
 * Run by the conversation-get and messages-list scenarios (and the test suite's check of their
 * bodies) as a child process with the service's DATABASE_URL, or DATA_DIR set to the service's
 * embedded PostgreSQL; it listens on a free port of 127.0.0.1 and sends `{port}` over IPC.
 */
const { createHash } = require('node:crypto');
const { createServer } = require('node:http');
const { Pool } = require('pg');
const { databaseConfig } = require('./database');

const ROUTE = /^\/api\/w\/([^/?]+)\/assistant\/conversations\/([^/?]+)(\/messages)?(?:\?(.*))?$/;
const BEARER = /^Bearer +([^\s]+) *$/;
const API_KEY_SECRET = /^sk-[0-9A-Za-z]{32}$/;
const KEY_CACHE_TTL_MS = 4_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
const DEFAULT_PAGE = 50;
const PAGE_MAX = 100;

const ERRORS = {
  missing: [
    401,
    'missing_authorization_header_error',
    'Missing Authorization header: send "Bearer <API key>".',
  ],
  malformed: [
    401,
    'malformed_authorization_header_error',
    'Malformed Authorization header: expected "Bearer <API key>".',
  ],
  invalidKey: [401, 'invalid_api_key_error', 'The API key is invalid or has been revoked.'],
  wrongWorkspace: [401, 'workspace_auth_error', 'The API key cannot access this workspace.'],
  scope: [403, 'insufficient_key_scope', 'The API key lacks the scope(s): read:conversation.'],
  restricted: [
    403,
    'conversation_access_restricted',
    'This conversation uses agents of spaces you cannot access.',
  ],
  notFound: [404, 'not_found', 'Not found.'],
  limit: [400, 'invalid_request_error', 'limit: an integer from 1 to 100.'],
  cursor: [400, 'invalid_request_error', 'cursor: not a cursor this API returned.'],
  notReproduced: [501, 'not_reproduced', 'This reference answers pages of user messages only.'],
};

const connection = process.env.DATABASE_URL
  ? { connectionString: process.env.DATABASE_URL }
  : databaseConfig(process.env.DATA_DIR);
const pool = new Pool({ ...connection, max: 20 });
/** The service's public address, which a conversation's `url` starts with. */
const PUBLIC_BASE_URL = process.env.PUBLIC_BASE_URL;
const keys = new Map();

const KEY_QUERY = `
  SELECT k.revoked_at, k.scopes, k.workspace_id, w.s_id AS workspace_s_id, w.name AS workspace_name, k.user_id,
         m.id IS NOT NULL AS member, m.role
  FROM api_keys k
  JOIN workspaces w ON w.id = k.workspace_id
  LEFT JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
  WHERE k.secret_hash = $1`;

/** A fork link's author, when still a member of the workspace ($1), as the service presents it. */
const forkUser = (alias) => `(
  SELECT json_build_object(
    'sId', u.s_id, 'id', u.id, 'createdAt', floor(extract(epoch FROM u.created_at) * 1000)::bigint,
    'provider', u.provider, 'username', u.username, 'email', u.email, 'firstName', u.first_name,
    'lastName', u.last_name, 'fullName', u.full_name, 'image', u.image,
    'lastLoginAt', floor(extract(epoch FROM u.last_login_at) * 1000)::bigint)
  FROM users u JOIN memberships m ON m.user_id = u.id AND m.workspace_id = $1
  WHERE u.id = ${alias}.forked_by_user_id)`;

const sourceMessage = (alias) =>
  `coalesce((SELECT s_id FROM messages WHERE workspace_id = $1 AND id = ${alias}.source_message_id), '')`;

const isFork = (alias) =>
  `${alias}.source_message_id IS NOT NULL AND ${alias}.branched_at IS NOT NULL AND ${alias}.forked_by_user_id IS NOT NULL`;

const accessible = (spaceId) => `EXISTS (
  SELECT 1 FROM spaces a WHERE a.id = ${spaceId} AND a.workspace_id = $1
  AND (a.kind = 'global' OR EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = a.id AND sm.user_id = $3)))`;

/** $1 workspace id, $2 conversation sId, $3 caller's user id. */
const CONVERSATION_QUERY = `
  SELECT c.id, c.s_id, c.title, c.depth, c.trigger_id, c.metadata, c.requested_space_ids, c.has_error,
         c.created_at, c.updated_at,
         p.user_id IS NOT NULL AS participant, p.last_read_at, p.action_required,
         s.s_id AS space_s_id,
         (c.space_id IS NULL OR ${accessible('c.space_id')})
           AND NOT EXISTS (
             SELECT 1 FROM unnest(c.requested_space_ids) AS r(s_id)
             WHERE NOT EXISTS (
               SELECT 1 FROM spaces rs WHERE rs.workspace_id = $1 AND rs.s_id = r.s_id AND ${accessible('rs.id')}))
           AS readable,
         (SELECT json_build_object(
            'parentConversationId', pc.s_id, 'parentConversationTitle', pc.title,
            'sourceMessageId', ${sourceMessage('c')},
            'branchedAt', floor(extract(epoch FROM c.branched_at) * 1000)::bigint,
            'user', ${forkUser('c')}, 'fileCopyStatus', coalesce(c.file_copy_status, 'done'))
          FROM conversations pc
          WHERE pc.workspace_id = $1 AND pc.id = c.parent_conversation_id AND ${isFork('c')}) AS forked_from,
         (SELECT coalesce(json_agg(json_build_object(
            'childConversationId', ch.s_id, 'childConversationTitle', ch.title,
            'sourceMessageId', ${sourceMessage('ch')},
            'branchedAt', floor(extract(epoch FROM ch.branched_at) * 1000)::bigint,
            'user', ${forkUser('ch')}) ORDER BY ch.id), '[]')
          FROM conversations ch
          WHERE ch.workspace_id = $1 AND ch.parent_conversation_id = c.id AND ${isFork('ch')}) AS forked_children
  FROM conversations c
  LEFT JOIN conversation_participants p
    ON p.workspace_id = $1 AND p.conversation_id = c.id AND p.user_id = $3
  LEFT JOIN spaces s ON s.workspace_id = $1 AND s.id = c.space_id
  WHERE c.workspace_id = $1 AND c.s_id = $2`;

/** $1 workspace id, $2 conversation sId, $3 caller's user id: the conversation's id and whether the caller may read it. */
const READABLE_QUERY = `
  SELECT c.id,
         (c.space_id IS NULL OR ${accessible('c.space_id')})
           AND NOT EXISTS (
             SELECT 1 FROM unnest(c.requested_space_ids) AS r(s_id)
             WHERE NOT EXISTS (
               SELECT 1 FROM spaces rs WHERE rs.workspace_id = $1 AND rs.s_id = r.s_id AND ${accessible('rs.id')}))
           AS readable
  FROM conversations c
  WHERE c.workspace_id = $1 AND c.s_id = $2`;

/**
 * $1 workspace id, $2 conversation id, $3 rank after which the page starts, $4 rows to read: the
 * latest version of each rank, with its author and reactions (oldest first).
 */
const PAGE_QUERY = `
  SELECT m.id, m.s_id, m.type, m.rank, m.version, m.content, m.created_at, m.mentions, m.context,
         m.user_id, u.s_id AS user_s_id, u.username, u.email, u.first_name, u.last_name, u.full_name, u.image,
         u.provider, u.created_at AS user_created_at,
         (SELECT json_agg(json_build_object(
            'emoji', r.emoji, 'userId', ru.s_id, 'username', ru.username, 'fullName', ru.full_name)
            ORDER BY r.created_at)
          FROM message_reactions r JOIN users ru ON ru.id = r.user_id
          WHERE r.workspace_id = $1 AND r.message_id = m.id) AS reactions
  FROM messages m
  LEFT JOIN users u ON u.id = m.user_id
  WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.rank > $3
    AND m.version = (SELECT max(v.version) FROM messages v WHERE v.conversation_id = m.conversation_id AND v.rank = m.rank)
  ORDER BY m.rank
  LIMIT $4`;

/**
 * $1 workspace id, $2 agent sIds, $3 caller's user id, $4 whether the caller is an admin: each
 * agent's latest version, whether it is the caller's favourite and whether the caller may read it.
 */
const AGENTS_QUERY = `
  SELECT a.s_id, a.name, a.description, a.picture_url,
         EXISTS (SELECT 1 FROM agent_favorites f
                 WHERE f.workspace_id = $1 AND f.user_id = $3 AND f.agent_s_id = a.s_id) AS favorite,
         (a.scope <> 'hidden' OR $4 OR EXISTS (
            SELECT 1 FROM agent_editors e WHERE e.workspace_id = $1 AND e.agent_s_id = a.s_id AND e.user_id = $3))
           AND NOT EXISTS (
             SELECT 1 FROM jsonb_array_elements(a.actions) AS action
             WHERE action->>'spaceId' IS NOT NULL AND NOT EXISTS (
               SELECT 1 FROM spaces rs
               WHERE rs.workspace_id = $1 AND rs.s_id = action->>'spaceId' AND ${accessible('rs.id')}))
           AS readable
  FROM (SELECT DISTINCT ON (s_id) * FROM agent_configurations
        WHERE workspace_id = $1 AND s_id = ANY($2) ORDER BY s_id, version DESC) a`;

/** The key's principal, from the 4 s cache or the database; null when unknown. */
async function principal(secretHash) {
  const now = Date.now();
  const cached = keys.get(secretHash);
  if (cached && cached.expiresAt > now) return cached.principal;
  const { rows } = await pool.query({ name: 'key', text: KEY_QUERY, values: [secretHash] });
  keys.delete(secretHash);
  if (rows.length === 0) return null;
  if (keys.size >= KEY_CACHE_MAX_ENTRIES) keys.delete(keys.keys().next().value);
  keys.set(secretHash, { principal: rows[0], expiresAt: now + KEY_CACHE_TTL_MS });
  return rows[0];
}

const pictureUrl = (seed) =>
  `https://api.dicebear.com/9.x/bottts-neutral/svg?seed=${encodeURIComponent(seed)}`;

const withImage = (user) => user && { ...user, image: user.image ?? pictureUrl(user.sId) };

function presentConversation(row, key) {
  const updated = row.updated_at.getTime();
  const lastReadMs = row.last_read_at?.getTime() ?? null;
  return {
    conversation: {
      id: row.id,
      created: row.created_at.getTime(),
      updated,
      sId: row.s_id,
      depth: row.depth,
      unread: !row.participant || lastReadMs === null || lastReadMs < updated,
      lastReadMs,
      actionRequired: row.action_required ?? false,
      hasError: row.has_error,
      title: row.title,
      url: `${PUBLIC_BASE_URL}/api/w/${key.workspace_s_id}/assistant/conversations/${row.s_id}`,
      spaceId: row.space_s_id,
      triggerId: row.trigger_id,
      metadata: row.metadata,
      requestedSpaceIds: row.requested_space_ids,
      requestedGroupIds: row.requested_space_ids.map((spaceId) => [spaceId]),
      visibility: 'unlisted',
      owner: {
        id: key.workspace_id,
        sId: key.workspace_s_id,
        name: key.workspace_name,
        role: key.role,
        segmentation: null,
        whiteListedProviders: null,
        defaultEmbeddingProvider: null,
      },
      forkingData: {
        forkedFrom: row.forked_from && { ...row.forked_from, user: withImage(row.forked_from.user) },
        forkedChildren: row.forked_children.map((child) => ({ ...child, user: withImage(child.user) })),
      },
    },
  };
}

const agentMentions = (mentions) => [
  ...new Set(mentions.flatMap((mention) => (mention.configurationId ? [mention.configurationId] : []))),
];

/** Reactions oldest first, grouped by emoji in the order each first appeared. */
function groupReactions(reactions) {
  const byEmoji = new Map();
  for (const { emoji, userId, username, fullName } of reactions ?? []) {
    const view = byEmoji.get(emoji) ?? { emoji, users: [] };
    view.users.push({ userId, username, fullName });
    byEmoji.set(emoji, view);
  }
  return [...byEmoji.values()];
}

function presentUserMessage(row, agents) {
  const context = row.context;
  const author = row.user_s_id === null ? null : row;
  const fullName = author?.full_name ?? context.fullName ?? context.username;
  return {
    type: 'user_message',
    sId: row.s_id,
    created: row.created_at.getTime(),
    version: row.version,
    rank: row.rank,
    content: row.content,
    id: row.id,
    visibility: 'visible',
    user: {
      sId: author?.user_s_id ?? '',
      id: row.user_id,
      createdAt: (author?.user_created_at ?? row.created_at).getTime(),
      provider: author?.provider ?? null,
      username: author?.username ?? context.username,
      email: author?.email ?? context.email ?? '',
      firstName: author?.first_name ?? fullName,
      lastName: author?.last_name ?? '',
      fullName,
      image: author?.image ?? pictureUrl(author?.user_s_id ?? context.username),
    },
    mentions: row.mentions,
    richMentions: agentMentions(row.mentions).flatMap((sId) => {
      const agent = agents.get(sId);
      if (!agent) return [];
      return [
        {
          id: sId,
          type: 'agent',
          label: agent.name,
          pictureUrl: agent.picture_url,
          description: agent.description,
          dismissed: false,
          status: agent.readable ? 'approved' : 'pending_conversation_access',
          userFavorite: agent.favorite,
        },
      ];
    }),
    context: {
      username: context.username,
      timezone: context.timezone,
      origin: context.origin,
      fullName: context.fullName ?? author?.full_name ?? '',
      email: context.email ?? author?.email ?? '',
      profilePictureUrl: context.profilePictureUrl ?? author?.image ?? pictureUrl(context.username),
      clientSideMCPServerIds: context.clientSideMCPServerIds ?? null,
      selectedMCPServerViewIds: context.selectedMCPServerViewIds ?? null,
      lastTriggerRunAt: context.lastTriggerRunAt ?? null,
    },
    agenticMessageData: context.agenticMessageData ?? null,
    reactions: groupReactions(row.reactions),
  };
}

const encodeCursor = (rank) => Buffer.from(String(rank)).toString('base64url');

/** The rank after which the page starts, or null when the cursor is not one this API returns. */
function decodeCursor(cursor) {
  const rank = Number(Buffer.from(cursor, 'base64url').toString());
  return Number.isSafeInteger(rank) && rank >= -1 && encodeCursor(rank) === cursor ? rank : null;
}

/** [status, body] of the message list, once the key may read conversations of the workspace. */
async function messages(key, cId, search) {
  const params = new URLSearchParams(search);
  const limitParam = params.get('limit');
  const limit = limitParam === null ? DEFAULT_PAGE : Number(limitParam);
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX) return ERRORS.limit;
  const cursor = params.get('cursor');
  const afterRank = cursor === null ? -1 : decodeCursor(cursor);
  if (afterRank === null) return ERRORS.cursor;
  const { rows: found } = await pool.query({
    name: 'readable',
    text: READABLE_QUERY,
    values: [key.workspace_id, cId, key.user_id],
  });
  if (found.length === 0) return [404, 'conversation_not_found', `Conversation ${cId} not found.`];
  if (!found[0].readable) return ERRORS.restricted;
  const { rows } = await pool.query({
    name: 'page',
    text: PAGE_QUERY,
    values: [key.workspace_id, found[0].id, afterRank, limit + 1],
  });
  const page = rows.slice(0, limit);
  if (page.some((row) => row.type !== 'user_message')) return ERRORS.notReproduced;
  const agentSIds = [...new Set(page.flatMap((row) => agentMentions(row.mentions)))];
  const agents = new Map();
  if (agentSIds.length > 0) {
    const { rows: described } = await pool.query({
      name: 'agents',
      text: AGENTS_QUERY,
      values: [key.workspace_id, agentSIds, key.user_id, key.role === 'admin'],
    });
    for (const agent of described) agents.set(agent.s_id, agent);
  }
  return [
    200,
    {
      messages: page.map((row) => presentUserMessage(row, agents)),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1].rank) : null,
    },
  ];
}

/** [status, body] of one request. */
async function answer(req) {
  const route = req.method === 'GET' ? ROUTE.exec(req.url) : null;
  if (!route) return ERRORS.notFound;
  const header = req.headers.authorization;
  if (header === undefined || header === '') return ERRORS.missing;
  const bearer = BEARER.exec(header);
  if (!bearer) return ERRORS.malformed;
  if (!API_KEY_SECRET.test(bearer[1])) return ERRORS.invalidKey;
  const key = await principal(createHash('sha256').update(bearer[1]).digest('hex'));
  if (!key || key.revoked_at) return ERRORS.invalidKey;
  const [wId, cId] = [route[1], route[2]].map(decodeURIComponent);
  if (key.workspace_s_id !== wId || !key.member) return ERRORS.wrongWorkspace;
  if (!key.scopes.includes('read:conversation')) return ERRORS.scope;
  if (route[3]) return messages(key, cId, route[4] ?? '');
  const { rows } = await pool.query({
    name: 'conversation',
    text: CONVERSATION_QUERY,
    values: [key.workspace_id, cId, key.user_id],
  });
  if (rows.length === 0) {
    return [404, 'conversation_not_found', `Conversation ${cId} not found.`];
  }
  if (!rows[0].readable) return ERRORS.restricted;
  return [200, presentConversation(rows[0], key)];
}

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

const server = createServer((req, res) => {
  answer(req).then(
    ([status, codeOrBody, message]) =>
      send(res, status, status === 200 ? codeOrBody : { error: { type: codeOrBody, message } }),
    () => send(res, 500, { error: { type: 'internal_server_error', message: 'Internal error.' } }),
  );
});

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

process.on('SIGTERM', () => server.close(() => pool.end()));
