import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { WorkspaceController } from 'src/platform/http/api-families';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import { DocumentSearchService } from 'src/modules/data-sources/application/document-search.service';
import { DataSourceViewParams } from 'src/modules/data-sources/http/dto/data-sources.dto';
import { SearchQuery } from 'src/modules/data-sources/http/dto/documents.dto';
import { presentSearchDocument } from 'src/modules/data-sources/http/documents.presenter';
import { presentDataSourceView } from 'src/modules/data-sources/http/data-sources.presenter';
import { DataSourceViewsResponse } from 'src/modules/data-sources/http/schemas/data-source.schema';
import { SearchResponse } from 'src/modules/data-sources/http/schemas/document.schema';

/** Endpoint 12 of the specification, in the public (`/api/v1`) path family. */
@ApiTags('data sources')
@WorkspaceController('spaces/:spaceId/data_source_views', { families: ['public'] })
export class DataSourceViewsController {
  constructor(
    private readonly dataSources: DataSourcesService,
    private readonly search: DocumentSearchService,
  ) {}

  @Get()
  @Auth({ scopes: ['read:data_source'] })
  @ApiOperation({
    summary: 'List the data source views of a space (endpoint 12).',
    description:
      'Any member who can access the space, with `read:data_source`; a space the caller cannot access ' +
      'is 404 `space_not_found`.',
  })
  @ApiOkResponse({
    type: DataSourceViewsResponse,
    description: 'The data source views of a space the caller can access, oldest first.',
  })
  @ApiErrors(404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
  ): Promise<DataSourceViewsResponse> {
    const views = await this.dataSources.listViews(caller, params.spaceId);
    return { dataSourceViews: views.map(presentDataSourceView) };
  }

  @Get(':dsvId/search')
  @Auth({ scopes: ['read:data_source'] })
  @ApiOperation({
    summary: 'Search the documents of a view',
    description:
      'Full-text search of the documents the view exposes (its `parentsIn`), in the text-search ' +
      'configuration of its data source: the best `top_k` chunks (1 to 64, default 10) grouped by document, ' +
      'best first. Any member who can access the space, with `read:data_source`.',
  })
  @ApiOkResponse({ type: SearchResponse })
  @ApiErrors(400, 404)
  async searchView(
    @CurrentCaller() caller: Caller,
    @Param() params: DataSourceViewParams,
    @Query() query: SearchQuery,
  ): Promise<SearchResponse> {
    const hits = await this.search.searchView(
      caller,
      params.spaceId,
      params.dsvId,
      query.query,
      query.top_k ?? 10,
    );
    return { documents: hits.map(presentSearchDocument) };
  }
}
