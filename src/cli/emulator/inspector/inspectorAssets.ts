import { readFile } from "node:fs/promises";
import { INSPECTOR_PATH } from "./InspectorRecord.js";

/**
 * Where `npm run build` writes the page's script, style sheet and icon (scripts/build-inspector.ts):
 * dist/inspector/. This file is four folders below the package root both as source
 * (src/cli/emulator/inspector/) and built (dist/cli/emulator/inspector/).
 */
const assetFolder = new URL("../../../../dist/inspector/", import.meta.url);

/** The files of the page, by the path they are served at, with their media type. */
const assets: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  [`${INSPECTOR_PATH}/inspector.js`]: { file: "inspector.js", type: "text/javascript; charset=utf-8" },
  [`${INSPECTOR_PATH}/inspector.css`]: { file: "inspector.css", type: "text/css; charset=utf-8" },
  [`${INSPECTOR_PATH}/favicon.svg`]: { file: "favicon.svg", type: "image/svg+xml" },
};

const cache = new Map<string, Promise<Uint8Array | undefined>>();

/** Whether `path` is one of the page's files. */
export const isAssetPath = (path: string): boolean => Object.hasOwn(assets, path);

/** A file of the page and its media type; `undefined` when the package was not built. */
export async function readAsset(path: string): Promise<{ body: Uint8Array; type: string } | undefined> {
  const asset = assets[path];
  if (asset === undefined) return undefined;
  let body = cache.get(asset.file);
  if (body === undefined) {
    body = readFile(new URL(asset.file, assetFolder)).then(
      (bytes) => new Uint8Array(bytes),
      () => undefined,
    );
    cache.set(asset.file, body);
  }
  const bytes = await body;
  if (bytes === undefined) cache.delete(asset.file);
  return bytes === undefined ? undefined : { body: bytes, type: asset.type };
}

/** The page: markup only, its script and style from files (the policy allows nothing inline). */
export const inspectorHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Inspector · messaging-events emulator</title>
<link rel="icon" href="${INSPECTOR_PATH}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${INSPECTOR_PATH}/inspector.css">
<script type="module" src="${INSPECTOR_PATH}/inspector.js"></script>
</head>
<body>
<noscript>The inspector needs JavaScript.</noscript>
</body>
</html>
`;
