import { Controller, SetMetadata } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';

/**
 * Where workspace routes are mounted: `spec` is the specification's family, `public` the one
 * Dust's client calls (same keys, rules and envelopes), `sse` where endpoint 7 redirects its stream.
 */
const MOUNTS = {
  spec: 'api/w/:wId',
  public: 'api/v1/w/:wId',
  sse: 'api/sse/w/:wId',
} as const;

export type Mount = keyof typeof MOUNTS;

/** The two path families, in the order their paths are registered (the public one second). */
export const BOTH_FAMILIES: readonly Mount[] = ['spec', 'public'];

const ONLY_ON = Symbol('route mount');
const TWIN_OF = Symbol('public twin of');

/** This route is served on `mount` only, not on its controller's families. */
export const OnlyOn = (mount: Mount): MethodDecorator => SetMetadata(ONLY_ON, mount);

/**
 * This handler answers the public family's form of `handler` (a route of the same path declared
 * `@OnlyOn('spec')`, whose answer has another shape): its operation id is the twin's, suffixed `_v1`.
 */
export const PublicFormOf =
  (handler: string): MethodDecorator =>
  (target, key, descriptor) => {
    SetMetadata(ONLY_ON, 'public')(target, key, descriptor);
    SetMetadata(TWIN_OF, handler)(target, key, descriptor);
  };

export interface WorkspaceControllerOptions {
  /** The mounts of its routes (both families by default); a route may narrow it with `@OnlyOn`. */
  families?: readonly Mount[];
  /**
   * The prefix of its operation ids when it is not the class's name: a route that moves to
   * another controller keeps the id clients generated code from.
   */
  operationIds?: string;
}

/** Operation ids by `<controller>#<method key>`, as the OpenAPI generator names the routes. */
const operationIds = new Map<string, string>();

/**
 * The one way a controller declares workspace routes: under `path` (relative to a mount), on both
 * families unless `families` or a route's `@OnlyOn`/`@PublicFormOf` says otherwise. Nest registers
 * each path; the OpenAPI document lists each as an operation of its own (`X_get`, `X_get_v1`).
 */
export function WorkspaceController(path: string, options: WorkspaceControllerOptions = {}): ClassDecorator {
  const families = options.families ?? BOTH_FAMILIES;
  return (target) => {
    const prefix = options.operationIds ?? target.name;
    const prototype = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const routePath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (routePath === undefined) continue;
      if (Array.isArray(routePath))
        throw new Error(`${target.name}.${name}: one path per route; the mounts give the others.`);
      const only = Reflect.getMetadata(ONLY_ON, handler) as Mount | undefined;
      const mounts = only ? [only] : families;
      const paths = mounts.map((mount) => joinPath(MOUNTS[mount], path, routePath));
      Reflect.defineMetadata(PATH_METADATA, paths, handler);
      const twin = Reflect.getMetadata(TWIN_OF, handler) as string | undefined;
      if (mounts.length === 1) {
        operationIds.set(`${target.name}#${name}`, twin ? `${prefix}_${twin}_v1` : `${prefix}_${name}`);
      } else {
        // The generator names each path of a route `<method>[<index>]`, in the order given.
        mounts.forEach((mount, index) => {
          const id = `${prefix}_${name}${mount === 'public' ? '_v1' : ''}`;
          operationIds.set(`${target.name}#${name}[${index}]`, id);
        });
      }
    }
    Controller()(target);
  };
}

function joinPath(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '')
    .join('/');
}

/**
 * Operation ids of the OpenAPI document: those `WorkspaceController` recorded, else Nest's
 * `<Controller>_<method>`.
 */
export function familyOperationId(controllerKey: string, methodKey: string): string {
  return operationIds.get(`${controllerKey}#${methodKey}`) ?? `${controllerKey}_${methodKey}`;
}
