// Starts `platcheck lsp` for the workspace: diagnostics (rule id linked to
// its doc), quick fixes and hover come from the server; nothing else here.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("platcheck");
  const command = config.get("path", "platcheck");
  const args = [...config.get("args", []), "lsp"];
  client = new LanguageClient(
    "platcheck",
    "platcheck",
    { run: { command, args }, debug: { command, args } },
    {
      documentSelector: [
        { scheme: "file", language: "sql" },
        { scheme: "file", language: "yaml" },
        { scheme: "file", language: "markdown" },
      ],
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
