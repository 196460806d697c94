/**
 * A plain object from any realm: its prototype is `null` or a realm's `Object.prototype`. `false`
 * for anything that cannot be inspected (a proxy whose traps throw, a revoked proxy): never throws.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    if (Array.isArray(value)) return false;
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === null || Object.getPrototypeOf(proto) === null;
  } catch {
    return false;
  }
}
