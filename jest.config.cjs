// Root Jest config: every workspace project that has a jest.config.cjs.
const fs = require("node:fs");
const path = require("node:path");
const projects = [];
for (const group of ["packages", "apps", "tools"]) {
  const dir = path.join(__dirname, group);
  if (!fs.existsSync(dir)) continue;
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (fs.existsSync(path.join(p, "jest.config.cjs"))) projects.push(p);
  }
}
module.exports = { projects, testTimeout: 60000 };
