import type {
  AgentScope,
  AgentStatus,
  AgentVersion,
  AgentVersionDraft,
} from 'src/modules/agents/domain/agent-configuration';

export interface LatestVersionFilter {
  scopes?: AgentScope[];
  statuses?: AgentStatus[];
  sIds?: string[];
}

/** Port: agent versions, editors and favourites. Every query takes the workspace id. */
export abstract class AgentRepository {
  /** Serialises the updates of one agent until the transaction ends. */
  abstract lockAgent(workspaceId: number, sId: string): Promise<void>;
  /** Inserts a version; null when (workspace, sId, version) already exists (a concurrent update won). */
  abstract insertVersion(draft: AgentVersionDraft): Promise<AgentVersion | null>;
  abstract archiveVersion(workspaceId: number, id: number): Promise<void>;
  /** The latest version of an agent; `lock` holds it until the transaction ends. */
  abstract findLatest(
    workspaceId: number,
    sId: string,
    options?: { lock?: boolean },
  ): Promise<AgentVersion | null>;
  /** The latest version of every agent matching the filter, in one query. */
  abstract listLatest(workspaceId: number, filter: LatestVersionFilter): Promise<AgentVersion[]>;
  /** Whether another live (not archived) agent has this name, ignoring case. */
  abstract liveNameTaken(workspaceId: number, name: string, exceptSId: string | null): Promise<boolean>;

  abstract editorsOf(workspaceId: number, sIds: string[]): Promise<Map<string, number[]>>;
  abstract replaceEditors(workspaceId: number, sId: string, userIds: number[]): Promise<void>;
  /** Drops the user from the editors of every agent of the workspace. */
  abstract removeEditor(workspaceId: number, userId: number): Promise<void>;
  abstract agentsEditedBy(workspaceId: number, userId: number): Promise<string[]>;

  abstract favoritesOf(workspaceId: number, userId: number): Promise<Set<string>>;
  abstract setFavorite(workspaceId: number, sId: string, userId: number, favorite: boolean): Promise<void>;

  /** Author user ids of the latest versions of each agent, newest first, at most `perAgent`. */
  abstract recentAuthors(
    workspaceId: number,
    sIds: string[],
    perAgent: number,
  ): Promise<Map<string, number[]>>;
}
