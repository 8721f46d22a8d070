import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
import { CreateApiKeyDto, KeyParams } from 'src/modules/identity/http/dto/identity.dto';
import {
  ApiKeyResponse,
  ApiKeysResponse,
  CreatedApiKeyResponse,
  presentApiKey,
  presentCreatedApiKey,
} from 'src/modules/identity/http/identity.presenter';

@ApiTags('api keys')
@Controller('api/w/:wId/keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scopes: [] })
  @ApiOkResponse({ type: CreatedApiKeyResponse })
  @ApiErrors(400, 404)
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    return { apiKey: presentCreatedApiKey(await this.apiKeys.create(caller, body)) };
  }

  @Get()
  @Auth({ scopes: [] })
  @ApiOkResponse({
    type: ApiKeysResponse,
    description: 'Admins see every key; other members their own. Never secrets.',
  })
  async list(@CurrentCaller() caller: Caller): Promise<ApiKeysResponse> {
    return { apiKeys: (await this.apiKeys.list(caller)).map(presentApiKey) };
  }

  @Delete(':keyId')
  @Auth({ scopes: [] })
  @ApiOkResponse({ type: ApiKeyResponse, description: 'The revoked key (revoking twice is not an error).' })
  @ApiErrors(404)
  async revoke(@CurrentCaller() caller: Caller, @Param() params: KeyParams): Promise<ApiKeyResponse> {
    return { apiKey: presentApiKey(await this.apiKeys.revoke(caller, params.keyId)) };
  }
}
