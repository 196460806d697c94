const plain: object = {};

/**
 * Whether `Object.prototype` has enumerable members (someone polluted it): then `for…in` lists
 * them on every object, and only the exact walk of the limits counts what a validation reads.
 */
export function prototypeHasMembers(): boolean {
  for (const _ in plain) return true;
  return false;
}
