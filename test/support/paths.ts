/** The API's routes, by what they name; one place to read or change a path the specs share. */
const workspace = (wId: string) => `/api/w/${wId}`;
const space = (wId: string, spaceId: string) => `${workspace(wId)}/spaces/${spaceId}`;
const conversations = (wId: string) => `${workspace(wId)}/assistant/conversations`;
const conversation = (wId: string, cId: string) => `${conversations(wId)}/${cId}`;
const message = (wId: string, cId: string, mId: string) => `${conversation(wId, cId)}/messages/${mId}`;

export const paths = {
  me: (wId: string) => `${workspace(wId)}/me`,
  member: (wId: string, userId: string) => `${workspace(wId)}/members/${userId}`,
  key: (wId: string, keyId: string) => `${workspace(wId)}/keys/${keyId}`,
  spaces: (wId: string) => `${workspace(wId)}/spaces`,
  spaceMember: (wId: string, spaceId: string, userId: string) => `${space(wId, spaceId)}/members/${userId}`,
  toolServers: (wId: string) => `${workspace(wId)}/mcp_servers`,
  toolServerViews: (wId: string, spaceId: string) => `${space(wId, spaceId)}/mcp_server_views`,
  agents: (wId: string) => `${workspace(wId)}/assistant/agent_configurations`,
  agent: (wId: string, sId: string) => `${workspace(wId)}/assistant/agent_configurations/${sId}`,
  /** The route that updates an agent (PATCH) is versioned. */
  agentUpdate: (wId: string, sId: string) => `/api/v1/w/${wId}/assistant/agent_configurations/${sId}`,
  triggers: (wId: string, aId: string) => `${workspace(wId)}/assistant/agent_configurations/${aId}/triggers`,
  webhookSources: (wId: string) => `${workspace(wId)}/webhook_sources`,
  webhookSourceViews: (wId: string, spaceId: string) => `${space(wId, spaceId)}/webhook_source_views`,
  hook: (wId: string, sourceSId: string) => `/api/v1/w/${wId}/triggers/hooks/${sourceSId}`,
  triggerWebhookRequests: (wId: string, aId: string, tId: string) =>
    `${workspace(wId)}/assistant/agent_configurations/${aId}/triggers/${tId}/webhook_requests`,
  triggerConversations: (wId: string, aId: string, tId: string) =>
    `${workspace(wId)}/assistant/agent_configurations/${aId}/triggers/${tId}/conversations`,
  triggerFirings: (wId: string, aId: string, tId: string) =>
    `${workspace(wId)}/assistant/agent_configurations/${aId}/triggers/${tId}/firings`,
  conversations,
  conversation,
  messages: (wId: string, cId: string) => `${conversation(wId, cId)}/messages`,
  message,
  events: (wId: string, cId: string) => `${conversation(wId, cId)}/events`,
  /** Where `events` redirects: the stream itself. */
  stream: (wId: string, cId: string) => `/api/sse/w/${wId}/assistant/conversations/${cId}/events`,
  wakeUps: (wId: string, cId: string) => `${conversation(wId, cId)}/wakeups`,
  wakeUp: (wId: string, cId: string, wuId: string) => `${conversation(wId, cId)}/wakeups/${wuId}`,
  feedbacks: (wId: string, cId: string) => `/api/v1/w/${wId}/assistant/conversations/${cId}/feedbacks`,
  messageFeedbacks: (wId: string, cId: string, mId: string) =>
    `/api/v1/w/${wId}/assistant/conversations/${cId}/messages/${mId}/feedbacks`,
  files: (wId: string) => `${workspace(wId)}/files`,
};
