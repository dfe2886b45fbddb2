// What the extension decides without VS Code: the command it starts and the settings it
// sends. Kept free of the `vscode` module so `node --test` can run it (see test/).

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The keys `cannctl server` reads from initializationOptions and didChangeConfiguration. */
export interface ServerSettings {
  product?: string;
  release?: string;
  lang?: string;
  docsUrl?: string;
  exclude?: string[];
}

/** The `cannctl.*` settings as VS Code returns them (any may be missing or of a wrong type). */
export type RawSettings = { [key: string]: unknown };

function text(v: unknown): string | undefined {
  if (typeof v !== "string") {
    return undefined;
  }
  const t = v.trim();
  return t === "" ? undefined : t;
}

/**
 * The server's settings from the user's: empty strings and empty lists are left out, so
 * the server falls back to `[tool.cannctl]` in pyproject.toml for them.
 */
export function serverSettings(raw: RawSettings): ServerSettings {
  const out: ServerSettings = {};
  const product = text(raw.product);
  const release = text(raw.release);
  const lang = text(raw.lang);
  const docsUrl = text(raw.docsUrl);
  if (product !== undefined) out.product = product;
  if (release !== undefined) out.release = release;
  if (lang !== undefined) out.lang = lang;
  if (docsUrl !== undefined) out.docsUrl = docsUrl;
  if (Array.isArray(raw.exclude)) {
    const globs = raw.exclude.map(text).filter((g): g is string => g !== undefined);
    if (globs.length > 0) out.exclude = globs;
  }
  return out;
}

/** Where a setting named the binary: what to resolve it against. */
export interface Place {
  /** The first workspace folder, if one is open. */
  workspaceFolder?: string;
  home?: string;
  /** `PATH` (and on Windows `PATHEXT`) as the extension host sees them. */
  env: { [key: string]: string | undefined };
  platform?: NodeJS.Platform;
  /** Whether a file is an executable; by default, asks the file system. */
  isExecutable?: (file: string) => boolean;
}

export interface ServerCommand {
  command: string;
  args: string[];
}

/** The error a missing or unusable binary gets; its message is shown to the user. */
export class CommandNotFound extends Error {
  constructor(
    readonly wanted: string,
    readonly tried: string[],
  ) {
    super(
      `cannctl: cannot start \`${wanted} server\`: no executable file at ${tried.join(", ") || "(an empty PATH)"}. ` +
        "Install cannctl (README, \"From Python\") or set `cannctl.path` to the binary.",
    );
    this.name = "CommandNotFound";
  }
}

function executable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) {
      return false;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The command that starts the server: `cannctl.path` (empty: `cannctl` looked up on
 * PATH), with `~` and relative paths resolved, and `server` as its argument. Throws
 * `CommandNotFound` naming every place looked at, rather than letting the client fail later
 * with a bare ENOENT.
 */
export function resolveServerCommand(setting: unknown, place: Place): ServerCommand {
  const platform = place.platform ?? process.platform;
  const p = platform === "win32" ? path.win32 : path.posix;
  const wanted = text(setting) ?? "cannctl";
  const home = place.home ?? os.homedir();
  let named = wanted;
  if (named === "~" || named.startsWith("~/")) {
    named = p.join(home, named.slice(1));
  }
  const isPath = named.includes("/") || (platform === "win32" && named.includes("\\"));
  let candidates: string[];
  if (p.isAbsolute(named)) {
    candidates = [named];
  } else if (isPath) {
    candidates = [p.resolve(place.workspaceFolder ?? process.cwd(), named)];
  } else {
    const dirs = (place.env.PATH ?? place.env.Path ?? "").split(p.delimiter).filter((d) => d !== "");
    const exts =
      platform === "win32" ? ["", ...(place.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter((e) => e !== "")] : [""];
    candidates = dirs.flatMap((d) => exts.map((e) => p.join(d, named + e)));
  }
  const found = candidates.find(place.isExecutable ?? executable);
  if (found === undefined) {
    throw new CommandNotFound(wanted, candidates);
  }
  return { command: found, args: ["server"] };
}

/** The documents the server is given: Python scripts, YAML/JSON configs, pyproject.toml. */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "python" },
  { scheme: "untitled", language: "python" },
  { scheme: "file", language: "yaml" },
  { scheme: "file", language: "json" },
  { scheme: "file", pattern: "**/pyproject.toml" },
];

/** Whether a change of configuration needs a new server process rather than new settings. */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return affects("cannctl.path");
}
