import type { SpaceServerView } from 'src/modules/agents/application/views/catalogue.view';
import type { McpServerView, RemoteMcpServer } from 'src/modules/agents/domain/catalogue';

export const presentSpaceServerView = (
  spaceSId: string,
  { view, server }: { view: McpServerView; server: RemoteMcpServer },
): SpaceServerView => ({
  id: view.id,
  sId: view.sId,
  spaceId: spaceSId,
  serverType: 'remote',
  name: null,
  description: null,
  server: {
    sId: server.sId,
    name: server.name,
    description: server.description,
    tools: server.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    version: server.serverVersion ?? '',
    icon: 'ActionCloudArrowLeftRightIcon',
    allowMultipleInstances: true,
    availability: 'manual',
    authorization: null,
    documentationUrl: null,
  },
  requireApproval: view.requireApproval,
  oAuthUseCase: null,
  editedByUser: null,
  createdAt: view.createdAt.getTime(),
  updatedAt: view.updatedAt.getTime(),
});
