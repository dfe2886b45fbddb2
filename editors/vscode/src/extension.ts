// The VS Code side: start `cannctl server` over stdio for the documents it checks, pass
// the settings at start and on change, restart it when the binary changes.

import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";

import { DOCUMENT_SELECTOR, needsRestart, resolveServerCommand, serverSettings } from "./settings";

let client: LanguageClient | undefined;

function settings(): { [key: string]: unknown } {
  const c = vscode.workspace.getConfiguration("cannctl");
  return {
    product: c.get("product"),
    release: c.get("release"),
    lang: c.get("lang"),
    docsUrl: c.get("docsUrl"),
    exclude: c.get("exclude"),
  };
}

async function start(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let cmd;
  try {
    cmd = resolveServerCommand(vscode.workspace.getConfiguration("cannctl").get("path"), {
      workspaceFolder: folder,
      env: process.env,
    });
  } catch (e) {
    void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
    return;
  }
  const run = { command: cmd.command, args: cmd.args, transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    initializationOptions: serverSettings(settings()),
  };
  client = new LanguageClient("cannctl", "cannctl", serverOptions, clientOptions);
  await client.start();
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    await c.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("cannctl")) {
        return;
      }
      if (needsRestart((s) => e.affectsConfiguration(s))) {
        await stop();
        await start();
      } else if (client !== undefined) {
        await client.sendNotification("workspace/didChangeConfiguration", { settings: serverSettings(settings()) });
      }
    }),
    vscode.commands.registerCommand("cannctl.restartServer", async () => {
      await stop();
      await start();
    }),
  );
  await start();
}

export function deactivate(): Promise<void> {
  return stop();
}
