import type {
  McpServerView,
  RemoteMcpServer,
  RequireApproval,
  Skill,
  Tag,
  TagKind,
  ToolSync,
} from 'src/modules/agents/domain/catalogue';

export type NewRemoteMcpServer = Pick<
  RemoteMcpServer,
  'workspaceId' | 'sId' | 'name' | 'url' | 'description' | 'sharedSecret'
> &
  ToolSync;

/** Port: tags, skills, remote tool servers and their space views of a workspace. */
export abstract class CatalogueRepository {
  abstract findTagsByNames(workspaceId: number, names: string[]): Promise<Tag[]>;
  /** Creates the missing tags (a concurrent creation of the same name is not an error) and returns all. */
  abstract ensureTags(
    workspaceId: number,
    tags: { sId: string; name: string; kind: TagKind }[],
  ): Promise<Tag[]>;
  abstract findTagsByIds(workspaceId: number, ids: number[]): Promise<Tag[]>;

  abstract createSkill(workspaceId: number, sId: string, name: string, description: string): Promise<Skill>;
  abstract listSkills(workspaceId: number): Promise<Skill[]>;
  abstract findSkillsBySIds(workspaceId: number, sIds: string[]): Promise<Skill[]>;
  abstract skillNameTaken(workspaceId: number, name: string): Promise<boolean>;

  abstract createRemoteServer(server: NewRemoteMcpServer): Promise<RemoteMcpServer>;
  /** Stores a synchronisation's outcome; null when the server is gone. */
  abstract saveSync(workspaceId: number, serverId: number, sync: ToolSync): Promise<RemoteMcpServer | null>;
  abstract listRemoteServers(workspaceId: number): Promise<RemoteMcpServer[]>;
  abstract findRemoteServer(workspaceId: number, sId: string): Promise<RemoteMcpServer | null>;
  /** These servers (those that still exist) with all their views, in one query. */
  abstract findRemoteServersWithViews(
    workspaceId: number,
    sIds: string[],
  ): Promise<{ server: RemoteMcpServer; views: McpServerView[] }[]>;
  abstract listViews(workspaceId: number): Promise<McpServerView[]>;
  abstract createView(
    workspaceId: number,
    view: Pick<McpServerView, 'sId' | 'mcpServerId' | 'spaceId' | 'requireApproval'>,
  ): Promise<McpServerView>;
  abstract findView(workspaceId: number, spaceId: number, viewSId: string): Promise<McpServerView | null>;
  abstract updateViewApproval(
    workspaceId: number,
    viewId: number,
    requireApproval: RequireApproval,
  ): Promise<McpServerView | null>;
  abstract deleteView(workspaceId: number, viewId: number): Promise<void>;
}
