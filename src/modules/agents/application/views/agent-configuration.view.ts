export interface PrivateModelView {
  providerId: string;
  modelId: string;
  temperature: number;
  reasoningEffort: string;
}

export interface PublicModelView {
  providerId: string;
  modelId: string;
  temperature: number;
}

export interface TagView {
  sId: string;
  name: string;
}

export interface EditorView {
  sId: string;
  fullName: string;
  image: string;
}

export interface UsageView {
  messageCount: number;
  conversationCount: number;
  userCount: number;
  timePeriodSec: number;
}

export interface FeedbacksView {
  up: number;
  down: number;
}

/** A toolset entry of the public form: a tool server the agent may call. */
export interface ActionView {
  type: string;
  name: string;
  description: string;
  mcpServerName: string;
  internal: boolean;
  mcpServerId: string | null;
  mcpServerViewId: string | null;
  spaceId: string | null;
}

/** The private form (list, create, get): the specification's second agent table. */
export interface PrivateAgentConfigurationView {
  id: number;
  sId: string;
  version: number;
  name: string;
  description: string;
  pictureUrl: string;
  status: string;
  scope: string;
  model: PrivateModelView;
  maxStepsPerRun: number;
  visualizationEnabled: boolean;
  tags: TagView[];
  versionCreatedAt: string;
  versionAuthorId: number | null;
  instructions: string | null;
  userFavorite: boolean;
  templateId: string | null;
  requestedGroupIds: string[][];
  requestedSpaceIds: string[];
  canRead: boolean;
  canEdit: boolean;
  lastAuthors?: string[];
  editors?: EditorView[];
  usage?: UsageView;
  feedbacks?: FeedbacksView;
}

/** The public form (returned by update): the specification's first agent table. */
export interface PublicAgentConfigurationView {
  id: number;
  sId: string;
  version: number;
  versionCreatedAt: string | null;
  versionAuthorId: string | null;
  name: string;
  description: string;
  instructions: string | null;
  pictureUrl: string;
  status: string;
  scope: string;
  userFavorite: boolean;
  model: PublicModelView;
  actions: ActionView[];
  maxStepsPerRun: number;
  visualizationEnabled: boolean;
  templateId: string | null;
  requestedGroupIds: string[][];
}

/** A toolset entry an update left out, and why. */
export interface SkippedActionView {
  name: string;
  reason: string;
}
