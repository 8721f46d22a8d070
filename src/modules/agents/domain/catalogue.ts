export const TAG_KINDS = ['standard', 'protected'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

export interface Tag {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  kind: TagKind;
}

export interface Skill {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  description: string;
  createdAt: Date;
}

export interface RemoteMcpServer {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  url: string;
  description: string;
  createdAt: Date;
}

export interface McpServerView {
  id: number;
  sId: string;
  workspaceId: number;
  mcpServerId: number;
  spaceId: number;
  createdAt: Date;
}

export const TAG_NAME_MAX = 64;
export const SKILL_NAME_MAX = 100;
export const SKILL_DESCRIPTION_MAX = 1_000;
export const MCP_SERVER_NAME_MAX = 100;
export const MCP_SERVER_DESCRIPTION_MAX = 1_000;
