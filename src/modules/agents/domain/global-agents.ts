import type { AgentVersionDraft } from 'src/modules/agents/domain/agent-configuration';
import { defaultPictureUrl } from 'src/modules/agents/domain/agent-configuration';

/** The built-in agents every workspace gets at creation; they run on the local model. */
export function globalAgentDrafts(workspaceId: number, newSId: () => string): AgentVersionDraft[] {
  const base = {
    workspaceId,
    version: 0,
    versionAuthorId: null,
    status: 'active' as const,
    scope: 'global' as const,
    model: {
      providerId: 'local' as const,
      modelId: 'local-1',
      temperature: 0.7,
      reasoningEffort: 'none' as const,
    },
    actions: [],
    maxStepsPerRun: 8,
    visualizationEnabled: false,
    templateId: null,
    tagIds: [],
    skillIds: [],
  };
  return [
    {
      ...base,
      sId: newSId(),
      name: 'assistant',
      description: 'A general assistant that answers from the conversation.',
      instructions: 'You are a helpful assistant. Answer the latest message using the conversation so far.',
      pictureUrl: defaultPictureUrl('assistant'),
    },
    {
      ...base,
      sId: newSId(),
      name: 'summarizer',
      description: 'Summarises the conversation so far.',
      instructions: 'Summarise the conversation so far in a few short sentences.',
      pictureUrl: defaultPictureUrl('summarizer'),
    },
  ];
}
