import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import {
  DataSourceViewsResponse,
  presentDataSourceView,
} from 'src/modules/data-sources/http/data-sources.presenter';

/** Endpoint 12 of the specification, in the public (`/api/v1`) path family. */
@ApiTags('data sources')
@Controller('api/v1/w/:wId/spaces/:spaceId/data_source_views')
export class DataSourceViewsController {
  constructor(private readonly dataSources: DataSourcesService) {}

  @Get()
  @Auth({ scopes: ['read:data_source'] })
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
}
