#!/usr/bin/env node
// The front-end build, the one step behind `make run`, `make test-setup` and the Dockerfile's asset stage.
//
// Installs the npm packages of package-lock.json (`npm ci`, skipped when node_modules already holds them), then fills
// app/static/vendor with exactly the files package.json's "vendor" lists, one line each:
//   "<path under app/static/vendor>": "<path under node_modules>"
// A new library is `npm install --save-exact <package>` and one line there. The folder is built aside and swapped in,
// so nothing stale stays and a running server never sees it half-built. Needs only node (which comes with npm).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const modules = join(root, "node_modules");
const target = join(root, "app", "static", "vendor");

function fail(message) {
  console.error(`build-assets: ${message}`);
  process.exit(1);
}

function installed() {
  const marker = join(modules, ".package-lock.json"); // npm's record of what node_modules holds
  return existsSync(marker) && statSync(marker).mtimeMs >= statSync(join(root, "package-lock.json")).mtimeMs;
}

function install() {
  // SCARF_ANALYTICS=false: swagger-ui-dist's dependency must not report the install anywhere.
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, SCARF_ANALYTICS: "false" },
  });
}

function inside(base, relative) {
  const path = normalize(join(base, relative));
  if (!path.startsWith(base + sep)) fail(`"${relative}" leaves ${base}`);
  return path;
}

const vendor = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).vendor;
if (!vendor || Object.keys(vendor).length === 0) fail('package.json has no "vendor" list');
if (!installed()) install();

const building = `${target}.building`;
rmSync(building, { recursive: true, force: true });
for (const [name, source] of Object.entries(vendor)) {
  const from = inside(modules, source);
  if (!existsSync(from)) fail(`node_modules/${source} is missing: is its package in package.json's dependencies?`);
  const to = inside(building, name);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}
rmSync(target, { recursive: true, force: true });
renameSync(building, target);
console.log(`build-assets: ${Object.keys(vendor).length} files in app/static/vendor`);
