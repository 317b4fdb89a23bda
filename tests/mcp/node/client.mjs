// The TypeScript SDK's MCP client, as an editor or desktop assistant runs it: it starts
// a server over stdio, lists its tools, calls them and prints what it got as JSON.
// Run by tests/mcp/test_typescript_peers.py:
//   node client.mjs '{"command": "...", "args": ["..."], "calls": [["name", {...}], ...]}'
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const plan = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: plan.command,
  args: plan.args,
  stderr: "inherit",
});
const client = new Client({ name: "toolwire-tests", version: "1.0.0" });
await client.connect(transport);
const listed = await client.listTools();
const results = [];
for (const [name, args] of plan.calls) {
  results.push(await client.callTool({ name, arguments: args }));
}
await client.close();
process.stdout.write(JSON.stringify({ tools: listed.tools, results }));
