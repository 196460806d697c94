/** Headers as users have them: Fetch `Headers`, Node's `IncomingHttpHeaders`, or a plain record. */
export type HeadersLike =
  | {
      /** The value of a header, or `null` when it is absent (Fetch `Headers.get`). */
      get(name: string): string | null;
    }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** A header's value, matched case-insensitively (ruling 15); repeated values are joined with ", ". */
export function headerValue(headers: unknown, name: string): string | undefined {
  if (typeof headers !== "object" || headers === null) return undefined;
  const wanted = name.toLowerCase();
  let value: unknown;
  if (typeof (headers as { get?: unknown }).get === "function") {
    value = (headers as { get(name: string): unknown }).get(wanted);
  } else {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === wanted) value = (headers as Record<string, unknown>)[key];
    }
  }
  if (Array.isArray(value)) return value.join(", ");
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}
