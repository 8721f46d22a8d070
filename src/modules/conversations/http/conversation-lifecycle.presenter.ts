import { ApiProperty } from '@nestjs/swagger';
import { AgentMessage } from 'src/modules/conversations/http/conversation.presenter';

export class ConversationDeletedResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

class UserParticipant {
  @ApiProperty({ example: 'Us4kD9wQ2n' }) sId!: string;
  @ApiProperty({ example: 'Ada Lovelace' }) fullName!: string;
  @ApiProperty({ example: 'ada' }) username!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true }) pictureUrl!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The same picture as `pictureUrl`.' })
  image!: string | null;
  @ApiProperty({
    enum: ['posted', 'reacted', 'subscribed'],
    description: '`posted` a message, else `reacted` to one, else `subscribed` (follows it).',
  })
  action!: 'posted' | 'reacted' | 'subscribed';
}

class AgentParticipant {
  @ApiProperty({ example: 'Ag7mP3xR8c' }) configurationId!: string;
  @ApiProperty({ example: 'summarizer' }) name!: string;
  @ApiProperty() pictureUrl!: string;
}

class ConversationParticipants {
  @ApiProperty({ type: [UserParticipant] }) users!: UserParticipant[];
  @ApiProperty({ type: [AgentParticipant] }) agents!: AgentParticipant[];
}

export class ParticipantsResponse {
  @ApiProperty({ type: ConversationParticipants }) participants!: ConversationParticipants;
}

export class AgentMessageResponse {
  @ApiProperty({ type: AgentMessage }) message!: AgentMessage;
}
