import { HttpCode, Post, applyDecorators } from '@nestjs/common';
import { Auth } from 'src/platform/auth/auth.decorators';

/**
 * A POST that changes a conversation or what it holds: a key with `write:conversation`, answered
 * 200 as Dust answers (not Nest's 201).
 */
export const PostToConversation = (path?: string) =>
  applyDecorators(Post(path), HttpCode(200), Auth({ scopes: ['write:conversation'] }));
