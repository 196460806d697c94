/** Why a file could not be read, in words, without the engine's full message. */
export function fileErrorReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "it is a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    default:
      return typeof code === "string" ? code : "read error";
  }
}
