// Content fingerprints of build inputs (the CLI bundles, the Next.js build), with a stat shortcut: a file whose size
// and modification time match the previous record is not read again, and one whose times changed but whose bytes did
// not (a regenerated Prisma client, a checkout) keeps the fingerprint. Plain CommonJS: the CLI launcher requires it
// untranspiled on every start, where the ES module loader would cost more than the check itself.
"use strict";

// node:crypto only once something is hashed: a start whose inputs all match their record (the usual one) hashes none.
const { readdirSync, readFileSync, statSync } = require("node:fs");
const path = require("node:path");
const createHash = (algorithm) => require("node:crypto").createHash(algorithm);

/**
 * Whether every one of `files` still has the size and modification time `record` (fingerprintFiles' record) holds
 * for it, and each file the record lacks is still missing: then fingerprintFiles would give the same fingerprint as
 * when it wrote `record`, without reading or hashing a byte.
 */
function unchangedSince(root, files, record) {
  for (const file of files) {
    const known = Object.hasOwn(record, file) ? record[file] : undefined;
    let stat;
    try {
      stat = statSync(path.resolve(root, file));
    } catch {
      if (known !== undefined) return false;
      continue;
    }
    if (!Array.isArray(known) || known[0] !== stat.size || known[1] !== stat.mtimeMs) return false;
  }
  return true;
}

/**
 * The fingerprint of `files` (relative to `root`, in the order given) and `extra` lines (settings that change the
 * output), plus the per-file record [size, mtimeMs, sha256] to pass back as `previous` next time.
 */
function fingerprintFiles(root, files, { previous = {}, extra = [] } = {}) {
  const hash = createHash("sha256");
  for (const line of extra) hash.update(`${line}\n`);
  const record = {};
  for (const file of files) {
    let entry = null;
    try {
      const stat = statSync(path.resolve(root, file));
      const known = previous[file];
      entry =
        Array.isArray(known) && known[0] === stat.size && known[1] === stat.mtimeMs
          ? known
          : [stat.size, stat.mtimeMs, createHash("sha256").update(readFileSync(path.resolve(root, file))).digest("hex")];
    } catch {
      // A missing input is part of the state: it changes the fingerprint, and its return changes it back.
    }
    if (entry) record[file] = entry;
    hash.update(`${file}:${entry ? entry[2] : "missing"}\n`);
  }
  return { fingerprint: hash.digest("hex"), record };
}

/** Every file under `dirs` (relative to `root`, sorted), skipping names `skip` matches. */
function listFiles(root, dirs, skip = () => false) {
  const found = [];
  const walk = (relative) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = path.posix.join(relative, entry.name);
      if (skip(entry.name)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}

module.exports = { fingerprintFiles, listFiles, unchangedSince };
