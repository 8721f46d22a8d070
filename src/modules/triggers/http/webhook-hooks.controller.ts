import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from 'src/platform/auth/auth.decorators';
import { DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { ApiErrors } from 'src/platform/http/api-errors';
import {
  PendingJsonBody,
  RequestWithBody,
  UnreadBody,
  parseJsonBody,
  refusedEncoding,
} from 'src/platform/http/json-body-parser';
import { WebhookDeliveriesService } from 'src/modules/triggers/application/webhook-deliveries.service';
import { HookParams } from 'src/modules/triggers/http/dto/webhook-sources.dto';
import { HookResponse } from 'src/modules/triggers/application/views/webhook-source.view';

const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const [OPEN_OBJECT, OPEN_ARRAY] = [0x7b, 0x5b];
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A payload is a JSON object (valid UTF-8, bounded depth and size), as filters and the agent read
 * it: an empty body or an array is a 400, not `{}` or a conversation. The worker reads the stored
 * text. A compressed body or another charset is a 415, as on every JSON route.
 */
function checkPayload(headers: RequestWithBody['headers'], bytes: Buffer): void {
  const refusal = refusedEncoding(headers);
  if (refusal !== null) throw new DomainError('unsupported_media_type', refusal);
  const text = bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes;
  const start = text.findIndex((byte) => !JSON_WHITESPACE.has(byte));
  if (start === -1) throw new InvalidRequestError('The webhook payload is empty: it must be a JSON object.');
  if (text[start] !== OPEN_OBJECT) {
    throw new InvalidRequestError(
      `The webhook payload must be a JSON object${text[start] === OPEN_ARRAY ? '; got an array' : ''}.`,
    );
  }
  parseJsonBody(headers, bytes);
}

@ApiTags('triggers')
@Controller('api/v1/w/:wId/triggers/hooks')
export class WebhookHooksController {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Post(':webhookSourceSId')
  @Public()
  @HttpCode(202)
  @ApiOperation({
    summary: "Receive a webhook delivery, signed with the source's secret.",
    description:
      "No API key: the delivery is authenticated by the HMAC-SHA256 of its raw body under the source's " +
      'signature header (`sha256=<hex>` as GitHub sends it, or the bare hex), compared in constant time; ' +
      'with a timestamp header, `<timestamp>.<body>` is signed and the time must be within the tolerance. ' +
      'An unknown workspace or source is 404 `webhook_source_not_found`; a missing or bad signature is 401 ' +
      '`webhook_source_auth_error`; a body over `WEBHOOK_BODY_LIMIT_BYTES` is 413; a signed body that is not a JSON ' +
      'object (an array, an empty body) is 400; more deliveries than the ' +
      "source's rate is 429; none of these is recorded. A missing or malformed signature or timestamp header is " +
      'refused before the body is read; so is, with 429 and Retry-After, a request from a client address or to a ' +
      'source that failed verification too often (`WEBHOOK_UNVERIFIED_PER_ADDRESS_PER_MINUTE`, ' +
      '`WEBHOOK_UNVERIFIED_PER_SOURCE_PER_MINUTE`). A signed delivery is stored and answered `202` at ' +
      'once: its triggers run after the answer (`GET …/triggers/{tId}/webhook_requests` shows what each did). ' +
      'A replay (a delivery id, or signed bytes, the source already sent, whatever delivery header comes with them) ' +
      'is answered `202` with `accepted: false` and not processed again; a GitHub source requires `X-GitHub-Delivery` (400).',
  })
  @ApiHeader({
    name: 'X-Hub-Signature-256',
    required: false,
    description: "The signature, under the source's `signatureHeader`.",
  })
  @ApiHeader({
    name: 'X-GitHub-Event',
    required: false,
    description: "The event, under the source's `eventHeader`.",
  })
  @ApiHeader({
    name: 'X-GitHub-Delivery',
    required: false,
    description: "The delivery id, under the source's `deliveryHeader`.",
  })
  @ApiBody({
    description: 'The payload: a JSON object, as the sender signed it.',
    schema: { type: 'object', additionalProperties: true },
    examples: {
      pullRequest: {
        summary: 'A GitHub pull_request event',
        value: { action: 'opened', number: 42, pull_request: { title: 'Fix the login page', draft: false } },
      },
    },
  })
  @ApiAcceptedResponse({ type: HookResponse, description: 'Stored; its triggers run after this answer.' })
  @ApiErrors(400, 401, 404, 413, 415, 429)
  async receive(@Param() params: HookParams, @Req() req: RequestWithBody): Promise<HookResponse> {
    // Unknown sources cost a query each: they count against the address like a failed signature.
    const addressKey = this.deliveries.admitAddress(req.socket.remoteAddress);
    const source = await this.deliveries.sourceFor(params.wId, params.webhookSourceSId);
    const { body, headers } = req;
    if (body instanceof UnreadBody) throw body.refusal();
    // Nothing of the body is read before the headers hold and the sender is within its limits.
    const admitted = this.deliveries.admit(source, headers, addressKey);
    const bytes =
      body instanceof PendingJsonBody
        ? await body.readBytes(this.deliveries.bodyLimitBytes)
        : Buffer.alloc(0);
    const signature = this.deliveries.authenticate(source, admitted, bytes);
    checkPayload(headers, bytes);
    const receipt = await this.deliveries.store(source, headers, bytes, signature);
    return { success: true, accepted: receipt.accepted };
  }
}
