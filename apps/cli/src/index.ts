export { main, buildProgram } from "./main.js";
export { ExitCode, exitCodeFor } from "./exit-codes.js";
