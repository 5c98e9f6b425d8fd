// Subprocess entry: `node dist/mcp-stdio-main.js [--index DIR] [--config agent.yaml --tool NAME]`
// serves the index as an MCP server on stdin/stdout (what `hierdoc serve --mcp` does).
import { parseArgs } from "node:util";
import { serve, stderrLogger } from "./serve.js";

const { values } = parseArgs({ options: { index: { type: "string" }, config: { type: "string" }, tool: { type: "string" } }, strict: true });
serve({ index: values.index, config: values.config, toolName: values.tool, stdio: true }).catch((err: Error & { code?: string }) => {
  stderrLogger({ level: "error", msg: "cannot start the MCP server", code: err.code ?? "E_INTERNAL", error: err.message });
  process.exitCode = 1;
});
