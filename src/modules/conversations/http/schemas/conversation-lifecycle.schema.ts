import { ApiProperty } from '@nestjs/swagger';
import type {
  AgentParticipantView,
  ConversationParticipantsView,
  UserParticipantView,
} from 'src/modules/conversations/application/views/conversation-participants.view';

export class ConversationDeletedResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class UserParticipant implements UserParticipantView {
  /** @example Us4kD9wQ2n */
  sId!: string;
  /** @example "Ada Lovelace" */
  fullName!: string;
  /** @example ada */
  username!: string;
  /** @example ada@example.com */
  email!: string;
  pictureUrl!: string | null;
  /** The same picture as `pictureUrl`. */
  image!: string | null;
  /** `posted` a message, else `reacted` to one, else `subscribed` (follows it). */
  action!: UserParticipantView['action'];
}

export class AgentParticipant implements AgentParticipantView {
  /** @example Ag7mP3xR8c */
  configurationId!: string;
  /** @example summarizer */
  name!: string;
  pictureUrl!: string;
}

export class ConversationParticipants implements ConversationParticipantsView {
  users!: UserParticipant[];
  agents!: AgentParticipant[];
}

export class ParticipantsResponse {
  participants!: ConversationParticipants;
}
