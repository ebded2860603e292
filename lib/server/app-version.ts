import "server-only";
// The app's own version (package.json), named wherever a result records what produced it.
import packageJson from "@/package.json";

export const APP_NAME = packageJson.name;
export const APP_VERSION = packageJson.version;
