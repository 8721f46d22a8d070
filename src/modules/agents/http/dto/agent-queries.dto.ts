import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { WorkspaceParams } from 'src/platform/http/route-params';
import {
  AGENT_SORTS,
  AGENT_VIEWS,
  AgentSort,
  AgentView,
} from 'src/modules/agents/application/agent-queries.service';

export class ListAgentsQuery {
  @ApiPropertyOptional({ default: 'all' })
  @IsOptional()
  @IsIn(AGENT_VIEWS)
  view?: AgentView;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ default: 'priority' })
  @IsOptional()
  @IsIn(AGENT_SORTS)
  sort?: AgentSort;

  /** Only the value `true` enables. */
  @IsOptional()
  @IsString()
  withAuthors?: string;

  /** Only the value `true` enables. */
  @IsOptional()
  @IsString()
  withEditors?: string;

  /** Only the value `true` enables: answers of the last 30 days. */
  @IsOptional()
  @IsString()
  withUsage?: string;

  /** Only the value `true` enables: up and down feedback given in the last 30 days. */
  @IsOptional()
  @IsString()
  withFeedbacks?: string;
}

export class AgentParams extends WorkspaceParams {
  /**
   * sId of the agent configuration.
   * @example Ag4tB7nM1q
   */
  @IsString()
  sId!: string;
}

/** The versions a history answers at most. */
export const AGENT_HISTORY_MAX = 100;

export class AgentHistoryQuery {
  /** How many versions, newest first. */
  @ApiPropertyOptional({ default: AGENT_HISTORY_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AGENT_HISTORY_MAX)
  limit?: number;
}
