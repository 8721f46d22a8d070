import { describe, expect, it } from '@jest/globals';
import { checkUseCaseMetadata } from 'src/modules/files/domain/use-case-metadata';

describe('use case metadata', () => {
  it('takes an optional conversation for conversation files', () => {
    expect(checkUseCaseMetadata('conversation')).toEqual({});
    expect(checkUseCaseMetadata('conversation', { conversationId: 'AbCdE12345' })).toEqual({
      conversationId: 'AbCdE12345',
    });
  });

  it('requires the space of a folders document', () => {
    expect(checkUseCaseMetadata('folders_document', { spaceId: 'vlt_AbCdE12345' })).toEqual({
      spaceId: 'vlt_AbCdE12345',
    });
    expect(() => checkUseCaseMetadata('folders_document', {})).toThrow(/useCaseMetadata.spaceId: required/);
  });

  it('refuses a key of another use case', () => {
    expect(() => checkUseCaseMetadata('avatar', { conversationId: 'AbCdE12345' })).toThrow(
      /useCaseMetadata.conversationId: not accepted for avatar files/,
    );
    expect(() => checkUseCaseMetadata('conversation', { spaceId: 'vlt_AbCdE12345' })).toThrow(
      /useCaseMetadata.spaceId/,
    );
  });
});
