import type { AgentModel } from 'src/kernel/agent-model';

export const AGENT_STATUSES = ['active', 'archived', 'draft'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** `global` is reserved for the built-in agents every workspace gets. */
export type AgentScope = 'visible' | 'hidden' | 'global';
export const EDITABLE_SCOPES = ['visible', 'hidden'] as const;

/** A tool the agent may call: a tool server resolved from its name, internal or remote (through a space view). */
export interface ResolvedAction {
  type: 'mcp_server_configuration';
  name: string;
  description: string;
  mcpServerName: string;
  internal: boolean;
  /** The remote server's sId; null for an internal server. */
  mcpServerId: string | null;
  /** The space view through which a remote server is reached; null for an internal server. */
  mcpServerViewId: string | null;
  /** The space of that view; null for an internal server. */
  spaceId: string | null;
}

/** One stored version of an agent configuration. */
export interface AgentVersion {
  id: number;
  sId: string;
  workspaceId: number;
  version: number;
  versionCreatedAt: Date;
  /** User row id of the version's author; null for built-in agents. */
  versionAuthorId: number | null;
  name: string;
  description: string;
  instructions: string | null;
  pictureUrl: string;
  status: AgentStatus;
  scope: AgentScope;
  model: AgentModel;
  actions: ResolvedAction[];
  maxStepsPerRun: number;
  visualizationEnabled: boolean;
  templateId: string | null;
  tagIds: number[];
  skillIds: number[];
}

export type AgentVersionDraft = Omit<AgentVersion, 'id' | 'versionCreatedAt'>;

/** Agent handles are mentioned as @name: letters, digits, `_`, `-` and `.`. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const AGENT_DESCRIPTION_MAX = 1_000;
export const AGENT_INSTRUCTIONS_MAX = 100_000;
export const MAX_STEPS_PER_RUN_LIMIT = 64;
export const DEFAULT_MAX_STEPS_PER_RUN = 8;
export const MODEL_ID_MAX = 128;

/** A deterministic avatar for agents without a picture (URL only; no request is made here). */
export function defaultPictureUrl(seed: string): string {
  return `https://api.dicebear.com/9.x/bottts-neutral/svg?seed=${encodeURIComponent(seed)}`;
}

/** Spaces an agent needs, derived from the spaces its remote tools are shared through. */
export function requestedSpaceIds(actions: ResolvedAction[]): string[] {
  return [...new Set(actions.flatMap((action) => (action.spaceId ? [action.spaceId] : [])))].sort();
}

export function isReadableBy(
  agent: Pick<AgentVersion, 'scope' | 'actions'>,
  reader: { isAdmin: boolean; isEditor: boolean; accessibleSpaceIds: ReadonlySet<string> },
): boolean {
  if (agent.scope === 'hidden' && !reader.isEditor && !reader.isAdmin) return false;
  return requestedSpaceIds(agent.actions).every((spaceId) => reader.accessibleSpaceIds.has(spaceId));
}

export function isEditableBy(
  agent: Pick<AgentVersion, 'scope'>,
  editor: { isAdmin: boolean; isEditor: boolean },
): boolean {
  return agent.scope !== 'global' && (editor.isAdmin || editor.isEditor);
}
