import type { Role } from 'src/platform/auth/caller';
import type { Caller } from 'src/platform/auth/caller';
import { AgentCommandsService } from 'src/modules/agents/application/agent-commands.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import type { TestModule } from 'test/support/test-app';

let count = 0;

/** A new workspace and the caller its first admin's full-scope key would give. */
export async function workspaceOf(module: TestModule) {
  const n = ++count;
  const workspaces = module.get(WorkspacesService);
  const { workspace, user } = await workspaces.bootstrap({
    workspaceName: `Medium ${n}`,
    email: `admin-${n}@example.com`,
    fullName: `Admin ${n}`,
  });
  const callerOf = async (userId: number): Promise<Caller> => {
    const caller = await workspaces.callerFor(workspace.id, userId, 'key_medium');
    if (!caller) throw new Error(`user ${userId} is not a member of ${workspace.name}`);
    return caller;
  };
  return {
    workspace,
    admin: await callerOf(user.id),
    /** Another member of the workspace, as their caller. */
    member: async (role: Role) => {
      const m = ++count;
      const added = await workspaces.addMember(workspace.id, {
        email: `${role}-${m}@example.com`,
        fullName: `Member ${m}`,
        role,
      });
      return callerOf(added.user.id);
    },
    /** An agent on the local model, which answers without a network. */
    agent: (caller: Caller, name = `agent-${++count}`) =>
      module.get(AgentCommandsService).create(caller, {
        name,
        description: 'Answers questions',
        instructions: 'Be brief.',
        scope: 'visible',
        model: { providerId: 'local', modelId: 'local-1', temperature: 0.3 },
      }),
  };
}
