import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
import { CreateApiKeyDto, KeyParams } from 'src/modules/identity/http/dto/api-keys.dto';
import {
  ApiKeyResponse,
  ApiKeysResponse,
  CreatedApiKeyResponse,
  renderApiKey,
  renderCreatedApiKey,
} from 'src/modules/identity/application/views/api-key.view';

@ApiTags('api keys')
@Controller('api/w/:wId/keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @HttpCode(200)
  @Auth({ scopes: ['admin'] })
  @ApiOperation({
    summary: 'Create an API key; its secret is shown once.',
    description:
      'Needs a key with the `admin` scope. The new key has at most the scopes of the calling key ' +
      '(none given: the same scopes); asking for more answers 403. Members create keys for ' +
      'themselves; admins, with `userId`, for any member.',
  })
  @ApiOkResponse({ type: CreatedApiKeyResponse })
  @ApiErrors(400, 404)
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    return { apiKey: renderCreatedApiKey(await this.apiKeys.create(caller, body)) };
  }

  @Get()
  @Auth({ scopes: ['admin'] })
  @ApiOperation({
    summary: 'List API keys, never their secrets.',
    description:
      'Needs a key with the `admin` scope. Admins see every key of the workspace; other members their own.',
  })
  @ApiOkResponse({
    type: ApiKeysResponse,
    description: 'Admins see every key; other members their own. Never secrets.',
  })
  async list(@CurrentCaller() caller: Caller): Promise<ApiKeysResponse> {
    return { apiKeys: (await this.apiKeys.list(caller)).map(renderApiKey) };
  }

  @Delete(':keyId')
  @Auth({ scopes: ['admin'] })
  @ApiOperation({
    summary: 'Revoke an API key, at once.',
    description:
      'Needs a key with the `admin` scope. Members revoke their own keys, admins any key of the ' +
      'workspace; keys created with a revoked key stay valid (keys belong to members, not to keys).',
  })
  @ApiOkResponse({ type: ApiKeyResponse, description: 'The revoked key (revoking twice is not an error).' })
  @ApiErrors(404)
  async revoke(@CurrentCaller() caller: Caller, @Param() params: KeyParams): Promise<ApiKeyResponse> {
    return { apiKey: renderApiKey(await this.apiKeys.revoke(caller, params.keyId)) };
  }
}
