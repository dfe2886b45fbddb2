// The extension's launch, without VS Code: the command `resolveServerCommand` picks and the
// settings `serverSettings` builds, given to the real `cannctl server` over stdio through
// the JSON-RPC library vscode-languageclient itself uses. Needs CANNCTL_BIN (the binary,
// e.g. target/debug/cannctl); without it the test is skipped, except under CI=true.

import * as assert from "node:assert/strict";
import * as cp from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import {
  createProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

import { resolveServerCommand, serverSettings } from "../src/settings";

const BIN = process.env.CANNCTL_BIN;
const WAIT_MS = 20_000;
const CJK = /[\u4e00-\u9fff]/;

// LSP 3.18 lets a message be markup; cannctl sends plain strings.
const text = (m: string | { value: string }): string => (typeof m === "string" ? m : m.value);

function skipReason(): string | undefined {
  if (BIN !== undefined && BIN !== "") return undefined;
  if (process.env.CI === "true") {
    throw new Error("CANNCTL_BIN is not set: under CI=true this test must run (editors/ci.sh sets it)");
  }
  return "set CANNCTL_BIN to a built cannctl (target/debug/cannctl) to run this test";
}

test("the launched server takes the extension's settings at start and on change", { skip: skipReason() }, async () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "cannctl-vscode-"));
  // cannctl.path as a user would set it: relative to the workspace.
  fs.mkdirSync(path.join(ws, "bin"));
  fs.symlinkSync(path.resolve(BIN as string), path.join(ws, "bin", "cannctl"));
  const cmd = resolveServerCommand("bin/cannctl", { workspaceFolder: ws, env: { PATH: "" } });
  const proc = cp.spawn(cmd.command, cmd.args, { cwd: ws, stdio: ["pipe", "pipe", "inherit"] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const published: PublishDiagnosticsParams[] = [];
  let wake: (() => void) | undefined;
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    wake?.();
  });
  conn.listen();
  const next = async (pred: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams> => {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const hit = published.find(pred);
      if (hit !== undefined) return hit;
      const left = deadline - Date.now();
      assert.ok(left > 0, `no matching publishDiagnostics within ${WAIT_MS} ms; got ${JSON.stringify(published)}`);
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, Math.min(left, 200));
      });
    }
  };
  try {
    const uri = pathToFileURL(path.join(ws, "train.py")).toString();
    await conn.sendRequest("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(ws).toString(),
      capabilities: {},
      initializationOptions: serverSettings({ lang: "zh", product: "", exclude: [] }),
    });
    await conn.sendNotification("initialized", {});
    const script = [
      "import tensorflow as tf",
      "config = tf.ConfigProto()",
      "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()",
      'custom_op.name = "NpuOptimizer"',
      'custom_op.parameter_map["op_debug_levl"].i = 1',
      "",
    ].join("\n");
    await conn.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "python", version: 1, text: script },
    });
    const zh = await next((p) => p.uri === uri && p.diagnostics.length > 0);
    const typo = zh.diagnostics.find((d) => d.range.start.line === 4);
    assert.ok(typo !== undefined, JSON.stringify(zh));
    assert.match(text(typo.message), CJK);

    published.length = 0;
    await conn.sendNotification("workspace/didChangeConfiguration", {
      settings: serverSettings({ lang: "en" }),
    });
    const en = await next((p) => p.uri === uri && p.diagnostics.some((d) => d.range.start.line === 4 && !CJK.test(text(d.message))));
    assert.ok(en.diagnostics.every((d) => !CJK.test(text(d.message))), JSON.stringify(en));
    await conn.sendRequest("shutdown");
    await conn.sendNotification("exit");
  } finally {
    conn.dispose();
    proc.kill();
  }
});
