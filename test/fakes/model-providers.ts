import {
  ModelChunk,
  ModelChunkHandler,
  ModelProvider,
  ModelProviders,
  ModelRequest,
  pushChunks,
} from 'src/modules/runtime/application/ports/model-provider';

/** What the model answers to a request: the chunks it streams, in order (a generator streams them as asked). */
export type ModelScript = (request: ModelRequest) => Iterable<ModelChunk>;

/** A model that answers as its script says, and keeps every request it got. */
export class ScriptedModel extends ModelProvider {
  readonly requests: ModelRequest[] = [];

  constructor(private readonly script: ModelScript) {
    super();
  }

  stream(request: ModelRequest, signal: AbortSignal, onChunk: ModelChunkHandler): Promise<boolean> {
    this.requests.push(structuredClone(request));
    return pushChunks(this.chunks(request, signal), onChunk);
  }

  private *chunks(request: ModelRequest, signal: AbortSignal): Iterable<ModelChunk> {
    for (const chunk of this.script(request)) {
      signal.throwIfAborted();
      yield chunk;
    }
  }

  acceptsImages(): boolean {
    return false;
  }
}

/** Every provider an agent names is the one scripted model. */
export class ScriptedModelProviders extends ModelProviders {
  constructor(readonly model: ScriptedModel) {
    super();
  }

  get(): ModelProvider {
    return this.model;
  }
}
