import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { WorkspaceController } from 'src/platform/http/api-families';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import { SearchDataSourceViewsQuery } from 'src/modules/data-sources/http/dto/data-sources.dto';
import {
  SearchedDataSourceViewsResponse,
  renderDataSourceView,
} from 'src/modules/data-sources/application/views/data-source.view';

/** The data source views of the whole workspace, as Dust's `searchDataSourceViews` reads them. */
@ApiTags('data sources')
@WorkspaceController('data_source_views', { families: ['public'] })
export class DataSourceViewSearchController {
  constructor(private readonly dataSources: DataSourcesService) {}

  @Get('search')
  @Auth({ scopes: ['read:data_source'] })
  @ApiOperation({
    summary: 'Find data source views across the spaces the caller can access.',
    description:
      "Dust's `searchDataSourceViews`: the views of every space the caller can access (the global space and " +
      'the regular spaces it is a member of), narrowed by `dataSourceId`, `kind`, `vaultId` (a space sId) and ' +
      '`vaultKind`, all optional. A space the caller cannot access adds nothing, even when named. Any member, ' +
      'with `read:data_source`.',
  })
  @ApiOkResponse({ type: SearchedDataSourceViewsResponse })
  @ApiErrors(400)
  async search(
    @CurrentCaller() caller: Caller,
    @Query() query: SearchDataSourceViewsQuery,
  ): Promise<SearchedDataSourceViewsResponse> {
    const views = await this.dataSources.searchViews(caller, query);
    return { data_source_views: views.map(renderDataSourceView) };
  }
}
