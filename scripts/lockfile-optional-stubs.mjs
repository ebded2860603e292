#!/usr/bin/env node
// Adds package-lock entries for other platforms' optional binaries (e.g. @next/swc-darwin-arm64) that this
// machine's registry does not serve. Without them `npm ci` reports "Missing: … from lock file" and stops.
// Each stub carries the platform (os/cpu/libc) so npm skips it here and fetches it normally where it fits.
// Run after `npm install` changes the lock file: `node scripts/lockfile-optional-stubs.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;

const OS_NAMES = ["android", "darwin", "freebsd", "linux", "win32", "openharmony", "aix", "netbsd", "openbsd", "sunos"];
const CPU_NAMES = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x", "wasm32", "mips64el"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((part) => OS_NAMES.includes(part));
  const cpu = parts.find((part) => CPU_NAMES.includes(part));
  const libc = parts.some((part) => part.startsWith("musl")) ? "musl" : parts.some((part) => part.startsWith("gnu")) ? "glibc" : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === "" ? "" : `${location}/`;
    const candidates = [`${base}node_modules/${dependency}`, `node_modules/${dependency}`];
    if (candidates.some((candidate) => packages[candidate])) continue;
    const { os, cpu, libc } = platformOf(dependency);
    if (!os && !cpu) continue; // not a platform binary; leave it to npm
    packages[`node_modules/${dependency}`] = {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(libc ? { libc: [libc] } : {}),
      ...(os ? { os: [os] } : {}),
    };
    added += 1;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile: added ${added} optional platform entries`);
