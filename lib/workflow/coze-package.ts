// The Coze workflow package of a response (MANIFEST.yml and the workflow YAML, coze-export spec §2), built only when
// the official Coze converter would convert it; otherwise the reason why not.

import { ok, type Result } from "../result";
import { writeZip } from "../zip/zip";
import { convertToCoze, type CozeOptions, type CozeWorkflow } from "./coze-convert";
import type { Diagnostic } from "./diagnostics";
import { parseYaml11, toYaml11 } from "./dify-yaml";
import type { JsonValue } from "./python-values";

export interface CozePackage {
  /** `Workflow-<name>-draft.zip`, the official archive name. */
  fileName: string;
  bytes: Uint8Array;
  /** The archive's entries as text, in archive order (MANIFEST.yml, then the workflow YAML). */
  files: { name: string; text: string }[];
  workflow: CozeWorkflow;
}

// PyYAML's dump as the official converter writes it (sorted keys, block style), quoted the way Dify's exports are so
// a YAML 1.1 loader reads every string back as a string: one serialiser for both platforms.
export function toCozeYaml(document: unknown): string {
  return toYaml11(document);
}

export function parseCozeYaml(text: string): Result<unknown, string> {
  return parseYaml11(text);
}

/** The manifest template with `main.name` set (§2): the only value that varies. */
export function cozeManifest(name: string): Record<string, unknown> {
  return {
    main: { commitId: "", desc: "coze workflow", flowMode: 0, icon: "plugin_icon/workflow.png", id: 1, name, version: "" },
    sub: [],
    type: "Workflow",
    version: "1.0.0",
  };
}

export function cozePackage(value: JsonValue, name: string, options: CozeOptions = {}): Result<CozePackage, Diagnostic> {
  const converted = convertToCoze(value, name, options);
  if (!converted.ok) return converted;
  const folder = `Workflow-${name}-draft`;
  const files = [
    { name: `${folder}/MANIFEST.yml`, text: toCozeYaml(cozeManifest(name)) },
    { name: `${folder}/workflow/${name}-draft.yaml`, text: toCozeYaml(converted.value) },
  ];
  const encoder = new TextEncoder();
  const bytes = writeZip(files.map((file) => ({ name: file.name, data: encoder.encode(file.text) })));
  return ok({ fileName: `${folder}.zip`, bytes, files, workflow: converted.value });
}

