import { Injectable } from '@nestjs/common';
import { markupElement } from 'src/platform/text/model-markup';
import { FileAttachmentsService, FragmentImage } from 'src/modules/files/files.api';
import {
  ConversationHistory,
  HistoryEntry,
  HistoryFragment,
} from 'src/modules/runtime/application/ports/conversation-history';
import type { ModelImage, ModelMessage } from 'src/modules/runtime/application/ports/model-provider';

/** Why an image fragment reaches the model as its title only, said in the text it reads. */
type ImageShown = { image: ModelImage } | { reason: string };

/**
 * The conversation as the model reads it. A content fragment is a user turn holding its text. An
 * image is shown to a model that reads images (its bytes from the files context), within the
 * configured bytes, newest first, since the latest image is the one a question is most likely about;
 * any other image is named by its title and type, saying why.
 */
@Injectable()
export class ModelHistoryService {
  constructor(
    private readonly files: FileAttachmentsService,
    private readonly conversationHistory: ConversationHistory,
  ) {}

  async messages(
    workspaceId: number,
    history: HistoryEntry[],
    acceptsImages: boolean,
  ): Promise<ModelMessage[]> {
    const images = acceptsImages ? await this.images(workspaceId, history) : new Map<string, ImageShown>();
    return history.flatMap((message): ModelMessage[] => {
      if (message.type === 'user_message') return [{ role: 'user', content: message.content }];
      if (message.type === 'content_fragment') return [fragmentMessage(message, images.get(message.sId))];
      return message.status === 'succeeded' ? [{ role: 'assistant', content: message.content }] : [];
    });
  }

  /** The image fragments of the history that carry a file, read newest first while the bytes last. */
  private async images(workspaceId: number, history: HistoryEntry[]): Promise<Map<string, ImageShown>> {
    const budget = this.conversationHistory.imageBytesPerRequest();
    let left = budget;
    const shown = new Map<string, ImageShown>();
    const fragments = history.filter(
      (message): message is HistoryFragment =>
        message.type === 'content_fragment' &&
        message.fileSId !== null &&
        message.contentType.startsWith('image/'),
    );
    for (const fragment of fragments.reverse()) {
      const image: FragmentImage | null = await this.files.imageOfFragment(
        workspaceId,
        fragment.fileSId!,
        left,
      );
      if (image === null) {
        shown.set(fragment.sId, { reason: 'its file is no longer available' });
      } else if (image.data === null) {
        shown.set(fragment.sId, {
          reason: `its ${image.size} bytes pass what is left of the ${budget} bytes of images a request may show the model (CONTENT_FRAGMENT_IMAGE_BYTES)`,
        });
      } else {
        left -= image.data.length;
        shown.set(fragment.sId, {
          image: { contentType: image.contentType, base64: image.data.toString('base64') },
        });
      }
    }
    return shown;
  }
}

/**
 * A fragment as an `<attachment>` element: its title (a file name, a webhook delivery's), type and
 * text come from outside, so they are encoded and cannot close the element or write the next turn.
 */
function fragmentMessage(fragment: HistoryFragment, image: ImageShown | undefined): ModelMessage {
  const attributes = { title: fragment.title, contentType: fragment.contentType };
  if (image && 'image' in image) {
    return {
      role: 'user',
      content: markupElement('attachment', attributes, '(The image follows.)'),
      image: image.image,
    };
  }
  const why = image ? `: ${image.reason}` : '';
  const body = fragment.text || `(A ${fragment.contentType} file, shown by its title only${why}.)`;
  return { role: 'user', content: markupElement('attachment', attributes, body) };
}
