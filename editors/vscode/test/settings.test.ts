// The extension's decisions that need no VS Code: settings -> initializationOptions, and
// `cannctl.path` -> the command started.

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { CommandNotFound, DOCUMENT_SELECTOR, needsRestart, resolveServerCommand, serverSettings } from "../src/settings";

test("set settings are passed under the server's key names", () => {
  assert.deepEqual(
    serverSettings({
      product: "atlas-a2-training",
      release: "9.0.0",
      lang: "zh",
      docsUrl: "https://example.org/cannctl/",
      exclude: ["vendor/**", "build/*.py"],
    }),
    {
      product: "atlas-a2-training",
      release: "9.0.0",
      lang: "zh",
      docsUrl: "https://example.org/cannctl/",
      exclude: ["vendor/**", "build/*.py"],
    },
  );
});

test("empty, blank and mistyped settings are left out so pyproject.toml decides", () => {
  assert.deepEqual(serverSettings({ product: "", release: "  ", lang: undefined, docsUrl: 3, exclude: [] }), {});
  assert.deepEqual(serverSettings({ exclude: ["", " x/** ", 7] }), { exclude: ["x/**"] });
  assert.deepEqual(serverSettings({ product: " atlas-a2-training " }), { product: "atlas-a2-training" });
  // Keys the server does not read are not sent.
  assert.deepEqual(serverSettings({ path: "/opt/cannctl", trace: "verbose" }), {});
});

function fakeBin(dir: string, name: string, mode = 0o755): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, "#!/bin/sh\n");
  fs.chmodSync(f, mode);
  return f;
}

test("an empty path setting looks cannctl up on PATH, first hit wins", () => {
  const a = fs.mkdtempSync(path.join(os.tmpdir(), "cannctl-a-"));
  const b = fs.mkdtempSync(path.join(os.tmpdir(), "cannctl-b-"));
  fakeBin(a, "cannctl", 0o644); // not executable: skipped
  const good = fakeBin(b, "cannctl");
  const env = { PATH: [a, b].join(path.delimiter) };
  assert.deepEqual(resolveServerCommand("", { env, platform: "linux" }), { command: good, args: ["server"] });
  assert.deepEqual(resolveServerCommand(undefined, { env, platform: "linux" }).command, good);
});

test("absolute, relative and ~ paths are resolved, not looked up on PATH", () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "cannctl-ws-"));
  fs.mkdirSync(path.join(ws, "bin"));
  const rel = fakeBin(path.join(ws, "bin"), "cannctl");
  const place = { workspaceFolder: ws, home: ws, env: { PATH: "" }, platform: "linux" as const };
  assert.equal(resolveServerCommand("bin/cannctl", place).command, rel);
  assert.equal(resolveServerCommand("./bin/cannctl", place).command, rel);
  assert.equal(resolveServerCommand("~/bin/cannctl", place).command, rel);
  assert.equal(resolveServerCommand(rel, place).command, rel);
});

test("a missing binary is a clear error naming every place tried", () => {
  const a = fs.mkdtempSync(path.join(os.tmpdir(), "cannctl-none-"));
  fs.mkdirSync(path.join(a, "cannctl")); // a directory is not an executable
  assert.throws(
    () => resolveServerCommand("", { env: { PATH: a }, platform: "linux" }),
    (e: unknown) =>
      e instanceof CommandNotFound &&
      e.tried.length === 1 &&
      e.message.includes(path.join(a, "cannctl")) &&
      e.message.includes("cannctl.path"),
  );
  assert.throws(() => resolveServerCommand("", { env: {}, platform: "linux" }), /an empty PATH/);
});

test("Windows looks for PATHEXT suffixes in each PATH directory", () => {
  const files = new Set(["C:\\tools\\cannctl.EXE"]);
  const got = resolveServerCommand("", {
    env: { Path: "C:\\empty;C:\\tools", PATHEXT: ".COM;.EXE" },
    platform: "win32",
    isExecutable: (f) => files.has(f),
  });
  assert.equal(got.command, "C:\\tools\\cannctl.EXE");
  assert.throws(
    () => resolveServerCommand("", { env: { Path: "C:\\empty" }, platform: "win32", isExecutable: () => false }),
    (e: unknown) => e instanceof CommandNotFound && e.tried.includes("C:\\empty\\cannctl.CMD"),
  );
});

test("only a change of the binary restarts the server", () => {
  assert.equal(needsRestart((s) => s === "cannctl.path"), true);
  assert.equal(needsRestart((s) => s === "cannctl.product"), false);
});

test("Python, YAML, JSON and pyproject.toml go to the server", () => {
  const langs = DOCUMENT_SELECTOR.map((d) => ("language" in d ? d.language : d.pattern));
  assert.deepEqual(new Set(langs), new Set(["python", "yaml", "json", "**/pyproject.toml"]));
});
