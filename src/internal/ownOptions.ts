/**
 * The options set on the object itself, each read once, in an object with no prototype: an option
 * inherited from a polluted `Object.prototype` is no option, so it can neither widen a limit nor
 * choose a secret, a path or a function. (A getter of the options object is read here, once.)
 */
export function ownOptions<T extends object>(options: T): T {
  const own: Record<string, unknown> = Object.create(null);
  for (const name of Object.keys(options)) own[name] = (options as Record<string, unknown>)[name];
  return own as T;
}
