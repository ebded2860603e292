// Builds the full Dify DSL document the official converter writes for a successful conversion, as plain data
// (dify-yaml.ts serialises it).

import type { Conversion, DifyEdge, DifyNode } from "./convert";

export const DIFY_DSL_VERSION = "0.4.0";

/** The marketplace plugins every exported app declares (the TTS provider "audio" is not among them). */
export const DIFY_PLUGIN_DEPENDENCIES = [
  "langgenius/tongyi:0.1.13@10cbfe851fdf27f3c50ca2ca86293eb0c27da51ee74e58acebafd92b71c8d518",
  "sawyer-shi/tongyi_aigc:0.0.1@01f2e5f8c3226e1bab678eed70baef4503d46aabf96c767ba58eaa48a6a8e290",
  "bowenliang123/md_exporter:2.2.0@9f39c2c2c1cd09180e2cc053090adc9886019483f502727467f136712b8b9639",
  "hjlarry/mermaid_converter:0.0.1@46e755f0d92566a1f7a6e85086eac02a735afaa41479e7a2277b150abda70b18",
  "langgenius/echarts:0.0.1@e390de4320a5ab32ef24899983f84c31aa39e4690c7b294be11f2c10268c3a68",
  "langgenius/google:0.1.0@c73cdc3dda5de500974ece93ce38eb6fc6bbf1399d38f1dbbbd70745ce154d0e",
] as const;

export interface DifyDependency {
  current_identifier: null;
  type: "marketplace";
  value: { marketplace_plugin_unique_identifier: string; version: null };
}

const DISABLED = { enabled: false } as const;

export interface DifyDsl {
  app: {
    description: string;
    icon: string;
    icon_background: string;
    mode: "workflow";
    name: string;
    use_icon_as_answer_icon: boolean;
  };
  dependencies: DifyDependency[];
  kind: "app";
  version: string;
  workflow: {
    conversation_variables: never[];
    environment_variables: never[];
    features: {
      file_upload: { enabled: boolean };
      opening_statement: string;
      retriever_resource: { enabled: boolean };
      sensitive_word_avoidance: { enabled: boolean };
      speech_to_text: { enabled: boolean };
      suggested_questions: never[];
      suggested_questions_after_answer: { enabled: boolean };
      text_to_speech: { enabled: boolean };
    };
    graph: { edges: DifyEdge[]; nodes: DifyNode[]; viewport: { x: number; y: number; zoom: number } };
    rag_pipeline_variables: never[];
  };
}

export function difyAppName(task: string, round: number): string {
  return `${task}_${round}`;
}

export function buildDifyDsl(conversion: Conversion, appName: string): DifyDsl {
  return {
    app: {
      description: "",
      icon: "🤖",
      icon_background: "#FFEAD5",
      mode: "workflow",
      name: appName,
      use_icon_as_answer_icon: false,
    },
    dependencies: DIFY_PLUGIN_DEPENDENCIES.map((identifier) => ({
      current_identifier: null,
      type: "marketplace",
      value: { marketplace_plugin_unique_identifier: identifier, version: null },
    })),
    kind: "app",
    version: DIFY_DSL_VERSION,
    workflow: {
      conversation_variables: [],
      environment_variables: [],
      features: {
        file_upload: { ...DISABLED },
        opening_statement: "",
        retriever_resource: { ...DISABLED },
        sensitive_word_avoidance: { ...DISABLED },
        speech_to_text: { ...DISABLED },
        suggested_questions: [],
        suggested_questions_after_answer: { ...DISABLED },
        text_to_speech: { ...DISABLED },
      },
      graph: { edges: conversion.graph.edges, nodes: conversion.graph.nodes, viewport: { x: 0, y: 0, zoom: 1 } },
      rag_pipeline_variables: [],
    },
  };
}
