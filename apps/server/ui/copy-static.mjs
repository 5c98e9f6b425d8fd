// Copies the page's static files (HTML, CSS, icon) next to the compiled scripts in dist/ui.
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "../dist/ui");
mkdirSync(join(out, "assets"), { recursive: true });
for (const name of readdirSync(join(here, "static"))) {
  cpSync(join(here, "static", name), name === "index.html" ? join(out, name) : join(out, "assets", name));
}
