// Starts `conditions lsp` for `.cond` files; everything else is the server's.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('conditions').get('server.path') || 'conditions';
  const server = { command, args: ['lsp'] };
  const options = {
    documentSelector: [{ scheme: 'file', language: 'conditions' }],
  };
  client = new LanguageClient('conditions', 'Conditions of contest', server, options);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
