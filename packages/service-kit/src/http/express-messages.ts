import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

type MessageClasses = { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse };
type Constructor = (this: object, a: unknown, b?: unknown) => void;

const isClass = (f: unknown) => /^class\b/.test(Function.prototype.toString.call(f));

/**
 * Node's request and response classes for a server of `app`, whose objects are born with the
 * app's prototypes (`app.request`, `app.response`). Express otherwise re-parents every request
 * and response in `app.handle` (`Object.setPrototypeOf(req, app.request)`), and objects whose
 * prototype changed after they were built leave every property access Node's HTTP code makes
 * on them on V8's slow path: a one-route Express app answered 0.7× the requests per second of
 * bare node:http on the same SQL, 1.0× with these. Born with it, Express's call is a no-op.
 * Node's constructors are plain functions, called on the new object (`Reflect.construct` with
 * the app's prototype gave slower objects than Express's re-parenting); were they ever classes,
 * which cannot be called so, the server keeps Node's own (Express's behaviour, only slower).
 */
export function expressMessageClasses(app: Express): Partial<MessageClasses> {
  if (isClass(IncomingMessage) || isClass(ServerResponse)) return {};
  const incoming = IncomingMessage as unknown as Constructor;
  const outgoing = ServerResponse as unknown as Constructor;
  function AppRequest(this: object, socket: unknown) {
    incoming.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: object, req: unknown, options: unknown) {
    outgoing.call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
