import { Body, Controller, Get, Headers, Patch, Query, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { TokenBudgetService } from 'src/modules/usage/application/token-budget.service';
import { TokenBudgetView } from 'src/modules/usage/application/views/token-budget.view';
import { UsageReportView } from 'src/modules/usage/application/views/usage-report.view';
import { UsageReportService } from 'src/modules/usage/application/usage-report.service';
import { SetTokenBudgetDto, UsageQueryDto } from 'src/modules/usage/http/dto/usage.dto';
import { usageCsv } from 'src/modules/usage/http/usage-csv';

const CSV_EXAMPLE =
  'agentSId,day,runs,messages,promptTokens,completionTokens,reasoningTokens,durationMs\r\n' +
  'Ag4tB7nM1q,2026-11-02,12,9,48210,2310,512,84200\r\n';

/** What the agents of a workspace cost, for its admins, and the monthly token budget. */
@ApiTags('usage')
@ApiExtraModels(UsageReportView)
@Controller('api/w/:wId/usage')
export class UsageController {
  constructor(
    private readonly reports: UsageReportService,
    private readonly budget: TokenBudgetService,
  ) {}

  @Get()
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: "What the workspace's agent runs cost over a range, by day, agent, user or model.",
    description:
      'Admins only, with a key holding the `admin` scope (another role is 403 `workspace_auth_error`). ' +
      'Sums the runs started from `start` to `end` (at most 366 days): runs, the user messages they ' +
      'answered, the prompt, completion and reasoning tokens their models reported, and their duration. ' +
      '`groupBy` combines groups with commas. With `Accept: text/csv`, the rows come as CSV (RFC 4180, ' +
      'a header row, no total). A bad or missing date, a range past 366 days or an unknown group is 400.',
  })
  @ApiHeader({ name: 'Accept', required: false, description: '`text/csv` for CSV; JSON otherwise.' })
  @ApiOkResponse({
    description: 'The rows, sorted by their groups, and the total of the range.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(UsageReportView) } },
      'text/csv': { schema: { type: 'string' }, example: CSV_EXAMPLE },
    },
  })
  @ApiErrors(400)
  async report(
    @CurrentCaller() caller: Caller,
    @Query() query: UsageQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<UsageReportView | string> {
    const report = await this.reports.report(caller, query);
    if (!accept?.toLowerCase().includes('text/csv')) return report;
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="usage-${report.start.slice(0, 10)}-${report.end.slice(0, 10)}.csv"`,
    );
    return usageCsv(report);
  }

  @Get('budget')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: "The workspace's monthly token budget, the tokens used this month and when it renews.",
    description:
      'Admins only, with a key holding the `admin` scope. Once the tokens of the month (UTC) reach the ' +
      'budget, posting a message that would start an agent run is refused with 429 `rate_limit_error` ' +
      'until `renewsAt`; runs under way finish.',
  })
  @ApiOkResponse({ type: TokenBudgetView })
  async getBudget(@CurrentCaller() caller: Caller): Promise<TokenBudgetView> {
    return this.budget.status(caller);
  }

  @Patch('budget')
  @Auth({ scopes: ['admin'], roles: ['admin'] })
  @ApiOperation({
    summary: "Set or remove the workspace's monthly token budget.",
    description:
      'Admins only, with a key holding the `admin` scope. `monthlyTokens` is a positive integer, or ' +
      'null to remove the workspace’s budget (the configured default, `USAGE_MONTHLY_TOKEN_BUDGET`, ' +
      'then applies if set). Answers the budget as it now applies.',
  })
  @ApiOkResponse({ type: TokenBudgetView })
  @ApiErrors(400)
  async setBudget(
    @CurrentCaller() caller: Caller,
    @Body() body: SetTokenBudgetDto,
  ): Promise<TokenBudgetView> {
    return this.budget.set(caller, body.monthlyTokens);
  }
}
