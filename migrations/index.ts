import type { MigrationInterface } from 'typeorm';
import { Identity1795305672391 } from './1795305672391-Identity';
import { DataSources1795306250750 } from './1795306250750-DataSources';
import { Agents1795306308426 } from './1795306308426-Agents';
import { Files1795306807032 } from './1795306807032-Files';
import { Conversations1795307110057 } from './1795307110057-Conversations';
import { AgentRuns1795308952014 } from './1795308952014-AgentRuns';
import { Feedback1795310238783 } from './1795310238783-Feedback';
import { WakeUps1795310327396 } from './1795310327396-WakeUps';
import { RateLimits1795311124859 } from './1795311124859-RateLimits';
import { UploadHeartbeat1795395564614 } from './1795395564614-UploadHeartbeat';
import { NormalisedNames1795395987024 } from './1795395987024-NormalisedNames';
import { AgentMessageActions1795408621426 } from './1795408621426-AgentMessageActions';
import { RemoteToolServerSync1795409979977 } from './1795409979977-RemoteToolServerSync';
import { Documents1795412763574 } from './1795412763574-Documents';
import { ContentFragments1795413517290 } from './1795413517290-ContentFragments';
import { ConversationDeletion1795419373717 } from './1795419373717-ConversationDeletion';
import { DataSourceDocumentCounts1795420778338 } from './1795420778338-DataSourceDocumentCounts';
import { RemoteServerTextsShown1795647280310 } from './1795647280310-RemoteServerTextsShown';
import { NamesWithoutHiddenCharacters1795652181765 } from './1795652181765-NamesWithoutHiddenCharacters';
import { RuntimeOwnsRuns1795656856277 } from './1795656856277-RuntimeOwnsRuns';
import { RunUsage1795668001061 } from './1795668001061-RunUsage';
import { WorkspaceTokenBudgets1795668508912 } from './1795668508912-WorkspaceTokenBudgets';
import { DustClientShapes1795670068940 } from './1795670068940-DustClientShapes';
import { ClientSideMcpServers1795670330854 } from './1795670330854-ClientSideMcpServers';
import { Triggers1795700000000 } from './1795700000000-Triggers';
import { ReactionShortcodesAsIds1795700000100 } from './1795700000100-ReactionShortcodesAsIds';
import { TypeormMetadataTable1795700000200 } from './1795700000200-TypeormMetadataTable';
import { WebhookSources1795700000300 } from './1795700000300-WebhookSources';
import { RemoteServerVersion1795720000000 } from './1795720000000-RemoteServerVersion';
import { ContentFragmentNodes1795720000100 } from './1795720000100-ContentFragmentNodes';
import { TriggersSourceConversation1795720000200 } from './1795720000200-TriggersSourceConversation';
import { HashedSchedulesStopped1795730004700 } from './1795730004700-HashedSchedulesStopped';
import { RunTokenReservations1796174007811 } from './1796174007811-RunTokenReservations';
import { WebhookRequestSignatures1796174219063 } from './1796174219063-WebhookRequestSignatures';
import { AgentRunsHoldingIndex1796177140642 } from './1796177140642-AgentRunsHoldingIndex';
import { DurableRunRequests1796184123675 } from './1796184123675-DurableRunRequests';

/** Every migration, oldest first; written by `migration generate`. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  Identity1795305672391,
  DataSources1795306250750,
  Agents1795306308426,
  Files1795306807032,
  Conversations1795307110057,
  AgentRuns1795308952014,
  Feedback1795310238783,
  WakeUps1795310327396,
  RateLimits1795311124859,
  UploadHeartbeat1795395564614,
  NormalisedNames1795395987024,
  AgentMessageActions1795408621426,
  RemoteToolServerSync1795409979977,
  Documents1795412763574,
  ContentFragments1795413517290,
  ConversationDeletion1795419373717,
  DataSourceDocumentCounts1795420778338,
  RemoteServerTextsShown1795647280310,
  NamesWithoutHiddenCharacters1795652181765,
  RuntimeOwnsRuns1795656856277,
  RunUsage1795668001061,
  WorkspaceTokenBudgets1795668508912,
  DustClientShapes1795670068940,
  ClientSideMcpServers1795670330854,
  Triggers1795700000000,
  ReactionShortcodesAsIds1795700000100,
  TypeormMetadataTable1795700000200,
  WebhookSources1795700000300,
  RemoteServerVersion1795720000000,
  ContentFragmentNodes1795720000100,
  TriggersSourceConversation1795720000200,
  HashedSchedulesStopped1795730004700,
  RunTokenReservations1796174007811,
  WebhookRequestSignatures1796174219063,
  AgentRunsHoldingIndex1796177140642,
  DurableRunRequests1796184123675,
];
