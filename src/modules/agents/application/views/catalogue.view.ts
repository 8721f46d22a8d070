import type { RequireApproval } from 'src/modules/agents/domain/catalogue';

export interface SkillView {
  sId: string;
  name: string;
  description: string;
  createdAt: number;
}

/** A space a remote server is shared to, through its view there. */
export interface ServerViewView {
  sId: string;
  spaceId: string;
  requireApproval: RequireApproval;
}

export interface McpServerViewView {
  sId: string;
  spaceId: string;
  mcpServerId: string;
  requireApproval: RequireApproval;
  createdAt: number;
}

export interface RemoteToolView {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface RemoteMcpServerView {
  sId: string;
  name: string;
  url: string;
  description: string;
  hasSharedSecret: boolean;
  tools: RemoteToolView[];
  lastSyncedAt: number | null;
  lastSyncError: string | null;
  createdAt: number;
  views: ServerViewView[];
}

export interface InternalMcpServerView {
  name: string;
  description: string;
  available: boolean;
  unavailableReason: string | null;
}

/** The tool servers a workspace knows: the internal catalogue and its remote servers. */
export interface McpServersView {
  internal: InternalMcpServerView[];
  remote: RemoteMcpServerView[];
}

/** The server behind a space's view, in the fields of Dust's `MCPServerType` this service has. */
export interface ViewedServerView {
  sId: string;
  name: string;
  description: string;
  tools: RemoteToolView[];
  /**
   * The version the server declared (`serverInfo.version`) at its last successful synchronisation;
   * empty when none did.
   */
  version: string;
  /** Dust's icon for a remote server. */
  icon: 'ActionCloudArrowLeftRightIcon';
  /** Any number of remote servers may be added. */
  allowMultipleInstances: true;
  availability: 'manual';
  authorization: null;
  documentationUrl: null;
}

/** A tool server as a space shows it, in the fields of Dust's `MCPServerViewType` this service has. */
export interface SpaceServerView {
  id: number;
  sId: string;
  spaceId: string;
  serverType: 'remote';
  name: null;
  description: null;
  server: ViewedServerView;
  requireApproval: RequireApproval;
  oAuthUseCase: null;
  editedByUser: null;
  createdAt: number;
  updatedAt: number;
}
