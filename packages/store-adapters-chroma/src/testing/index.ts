export { startChromaServer, freePort, type ChromaServer, type ChromaServerOptions } from "./chroma-server.js";
