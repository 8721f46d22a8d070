import type { Caller } from 'src/platform/auth/caller';
import type { AgentDetails } from 'src/modules/agents/application/agents.service';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import type { AgentMessage } from 'src/modules/conversations/domain/message';

/** An agent message being generated, with what its runner needs. */
export interface Run {
  caller: Caller;
  conversation: Conversation;
  message: AgentMessage;
  agent: AgentDetails['agent'];
}
