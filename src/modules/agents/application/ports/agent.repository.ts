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

/** What one reader's view of an agent needs besides its version. */
export interface AgentRelations {
  /** Whether the reader marked the agent as a favourite. */
  favorite: boolean;
  /** User ids of the agent's editors, ascending. */
  editorIds: number[];
  /** User ids of the authors of its latest versions, newest first; null unless asked for. */
  recentAuthorIds: number[] | null;
}

export interface RelatedAgent {
  agent: AgentVersion;
  relations: AgentRelations;
}

/** Whose favourites to read, and how many recent authors per agent (none when null). */
export interface RelationsReader {
  userId: number;
  recentAuthors: number | null;
}

/** Port: agent versions, editors and favourites. Every query takes the workspace id. */
export abstract class AgentRepository {
  /** Serialises the updates of one agent until the transaction ends. */
  abstract lockAgent(workspaceId: number, sId: string): Promise<void>;
  /** Inserts a version; null when (workspace, sId, version) already exists (a concurrent update won). */
  abstract insertVersion(draft: AgentVersionDraft): Promise<AgentVersion | null>;
  abstract archiveVersion(workspaceId: number, id: number): Promise<void>;
  /** The latest version of an agent (lockAgent first, to change it). */
  abstract findLatest(workspaceId: number, sId: string): Promise<AgentVersion | null>;
  /** The versions of an agent, newest first, at most `limit`. */
  abstract listVersions(workspaceId: number, sId: string, limit: number): Promise<AgentVersion[]>;
  /** The latest version of every agent matching the filter, with its relations, in one query. */
  abstract listLatest(
    workspaceId: number,
    filter: LatestVersionFilter,
    reader: RelationsReader,
  ): Promise<RelatedAgent[]>;
  /** Whether another live (not archived) agent has this name, ignoring case. */
  abstract liveNameTaken(workspaceId: number, name: string, exceptSId: string | null): Promise<boolean>;

  abstract editorsOf(workspaceId: number, sIds: string[]): Promise<Map<string, number[]>>;
  abstract replaceEditors(workspaceId: number, sId: string, userIds: number[]): Promise<void>;
  /** Drops the user from the editors of every agent of the workspace. */
  abstract removeEditor(workspaceId: number, userId: number): Promise<void>;

  abstract setFavorite(workspaceId: number, sId: string, userId: number, favorite: boolean): Promise<void>;
}
