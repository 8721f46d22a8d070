import { Abstract, DynamicModule, Global, Module, Type } from '@nestjs/common';

/**
 * A port that one context declares (an abstract class, its own token) and another context answers.
 * `from` lists the modules that export the answer (`useExisting`: a class, or a port of the answering
 * context that it binds to its own adapter) or what the answering class needs (`useClass`).
 */
export interface CrossContextPort {
  port: Abstract<unknown>;
  answer: { useExisting: Type | Abstract<unknown> } | { useClass: Type };
  from: Type[];
}

/** Binds `port` to a class whose instances it accepts: an answer that does not fit does not compile. */
export function bindPort<T>(
  port: Abstract<T>,
  answer: { useExisting: Type<NoInfer<T>> | Abstract<NoInfer<T>> } | { useClass: Type<NoInfer<T>> },
  from: Type[],
): CrossContextPort {
  return { port, answer, from };
}

/**
 * Hands each context the cross-context ports it declares. The bindings are listed once, by the
 * composition (src/composition); this module only carries them. It is global because the
 * declaring context cannot import the module that answers: that module depends on it.
 */
@Global()
@Module({})
export class CrossContextPortsModule {
  static bind(ports: CrossContextPort[]): DynamicModule {
    return {
      module: CrossContextPortsModule,
      imports: [...new Set(ports.flatMap(({ from }) => from))],
      providers: ports.map(({ port, answer }) => ({ provide: port, ...answer })),
      exports: ports.map(({ port }) => port),
    };
  }
}
