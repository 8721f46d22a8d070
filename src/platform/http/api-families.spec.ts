import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Get, type INestApplication, Patch, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { OnlyOn, PublicFormOf, WorkspaceController, familyOperationId } from 'src/platform/http/api-families';

@WorkspaceController('things')
class ThingsController {
  @Get(':id')
  read() {
    return { read: 'both' };
  }

  @Post()
  @OnlyOn('spec')
  create() {
    return { created: 'spec' };
  }

  @Post()
  @PublicFormOf('create')
  createPublic() {
    return { created: 'public' };
  }

  @Get(':id/events')
  @OnlyOn('sse')
  events() {
    return { events: 'sse' };
  }
}

@WorkspaceController('things/:id/notes', { families: ['public'], operationIds: 'ThingsController' })
class NotesController {
  @Patch()
  note() {
    return { noted: 'public' };
  }
}

describe('WorkspaceController', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      controllers: [ThingsController, NotesController],
    }).compile();
    app = module.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('serves each route on the mounts its controller or the route gives', async () => {
    const http = app.getHttpServer() as Parameters<typeof request>[0];
    const served = async (method: 'get' | 'post' | 'patch', path: string) => {
      const res = await request(http)[method](path);
      return res.status === 404 ? null : (res.body as object);
    };
    expect(await served('get', '/api/w/W1/things/7')).toEqual({ read: 'both' });
    expect(await served('get', '/api/v1/w/W1/things/7')).toEqual({ read: 'both' });
    expect(await served('post', '/api/w/W1/things')).toEqual({ created: 'spec' });
    expect(await served('post', '/api/v1/w/W1/things')).toEqual({ created: 'public' });
    expect(await served('get', '/api/sse/w/W1/things/7/events')).toEqual({ events: 'sse' });
    expect(await served('get', '/api/w/W1/things/7/events')).toBeNull();
    expect(await served('patch', '/api/v1/w/W1/things/7/notes')).toEqual({ noted: 'public' });
    expect(await served('patch', '/api/w/W1/things/7/notes')).toBeNull();
  });

  it("names the public twin of a route after it, and a moved route's id after its old controller", () => {
    const document = SwaggerModule.createDocument(
      app,
      { openapi: '3.0.0', info: { title: 't', version: '1' } },
      { operationIdFactory: familyOperationId },
    );
    const ids = Object.fromEntries(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item as Record<string, { operationId: string }>).map(([method, operation]) => [
          `${method.toUpperCase()} ${path}`,
          operation.operationId,
        ]),
      ),
    );
    expect(ids).toEqual({
      'GET /api/w/{wId}/things/{id}': 'ThingsController_read',
      'GET /api/v1/w/{wId}/things/{id}': 'ThingsController_read_v1',
      'POST /api/w/{wId}/things': 'ThingsController_create',
      'POST /api/v1/w/{wId}/things': 'ThingsController_create_v1',
      'GET /api/sse/w/{wId}/things/{id}/events': 'ThingsController_events',
      'PATCH /api/v1/w/{wId}/things/{id}/notes': 'ThingsController_note',
    });
  });

  it('refuses a route that declares several paths itself', () => {
    const declare = () => {
      @WorkspaceController('others')
      class OthersController {
        @Get(['a', 'b'])
        both() {
          return {};
        }
      }
      return OthersController;
    };
    expect(declare).toThrow('OthersController.both: one path per route');
  });
});
