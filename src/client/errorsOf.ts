import { redactJson } from "./redactSecrets.js";

/**
 * The `errors` member of a body, if it is JSON with one, with the authorization values blotted
 * out of every string in it. The body is parsed first: a service may escape a value it echoes
 * (`\/`, `\u0041`), and only the decoded strings show it.
 */
export function errorsOf(text: string, secrets: readonly string[]): unknown {
  let errors: unknown;
  try {
    errors = (JSON.parse(text) as { errors?: unknown } | null)?.errors;
  } catch {
    return undefined;
  }
  return redactJson(errors, secrets).value;
}
