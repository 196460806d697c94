/** The forms of the client's `authorization` option, for the suites that must hold for each. */
import type { EventsClientOptions } from "../../src/index.js";

/** The ways to give the option: the value itself, a function (sync or async), or one that refreshes. */
export type AuthorizationForm = "string" | "function" | "async function" | "refreshing function";
export const authorizationForms: readonly AuthorizationForm[] = [
  "string",
  "function",
  "async function",
  "refreshing function",
];

/**
 * The option in that form for `scheme token`; a refreshing function gives `scheme token`, then
 * `scheme token~2`, `scheme token~3`… on later attempts. `sent` lists each value given.
 */
export function authorizationIn(
  form: AuthorizationForm,
  scheme: string,
  token: string,
): { authorization: EventsClientOptions["authorization"]; sent: string[] } {
  const sent: string[] = [];
  const give = (value: string) => {
    sent.push(value);
    return value;
  };
  const auth = `${scheme} ${token}`;
  switch (form) {
    case "string":
      return { authorization: auth, sent };
    case "function":
      return { authorization: () => give(auth), sent };
    case "async function":
      return { authorization: async () => give(auth), sent };
    case "refreshing function":
      return {
        authorization: async () => give(sent.length === 0 ? auth : `${auth}~${sent.length + 1}`),
        sent,
      };
  }
}
